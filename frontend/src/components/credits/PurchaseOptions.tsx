import { useGetPublicConfigQuery } from '../../lib/credits/api';
import { useCheckout } from '../../lib/credits/checkout';
import { CreditPacks } from './CreditPacks';

export const PURCHASES_UNAVAILABLE = 'Buying credits is not available on this server right now.';

/**
 * The packs as buttons that open the payment page, with what happened underneath. A server that sells no packs
 * (neither Stripe nor the simulated checkout is set up: `/api/config` says `purchases: 'off'`) gets no buttons that
 * could only fail, but a sentence saying so.
 */
export function PurchaseOptions() {
  const config = useGetPublicConfigQuery();
  const { choose, pending, error, opened } = useCheckout();
  if (config.data?.purchases === 'off') {
    return (
      <p className="alert alert--info" role="status">
        {PURCHASES_UNAVAILABLE}
      </p>
    );
  }
  return (
    <div className="stack">
      <CreditPacks onChoose={(p) => void choose(p)} pending={pending} />
      {error && (
        <p className="alert alert--danger" role="alert">
          {error}
        </p>
      )}
      {opened && (
        <p className="alert alert--info" role="status">
          The payment page opened in a new tab. Once you have paid, your new balance shows up here within a few seconds.
        </p>
      )}
    </div>
  );
}
