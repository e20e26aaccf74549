import { Modal } from '../Modal';
import { enterpriseMailto } from '../../lib/contact';
import { useGetProfileQuery, useGetPublicConfigQuery } from '../../lib/credits/api';
import { PurchaseOptions } from './PurchaseOptions';

/**
 * The Purchase Credits dialog (uploads list, the wizard's insufficient-credits message, account): choose a
 * pack, pay on the payment page, and the balance here updates by itself for the next two minutes.
 */
export function PurchaseCreditsModal({ onClose }: { onClose: () => void }) {
  const profile = useGetProfileQuery();
  const selling = useGetPublicConfigQuery().data?.purchases !== 'off';

  return (
    <Modal
      title="Purchase Credits"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="stack">
        <p className="purchase__intro">
          {profile.data ? (
            <>
              Your balance: <strong>{profile.data.credits.toLocaleString('en-US')} credits</strong>.
            </>
          ) : (
            'Credits pay for the frames we read.'
          )}
          {selling && ' Choose a pack to continue to the secure payment page.'}
        </p>
        <PurchaseOptions />
        <p className="small muted purchase__note">
          Need more, or an invoice for your organisation? <a href={enterpriseMailto}>Ask about an enterprise account</a>.
        </p>
      </div>
    </Modal>
  );
}
