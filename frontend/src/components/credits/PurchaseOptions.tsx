import { useCheckout } from '../../lib/credits/checkout';
import { CreditPacks } from './CreditPacks';

/** The packs as buttons that open the payment page, with what happened underneath. */
export function PurchaseOptions() {
  const { choose, pending, error, opened } = useCheckout();
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
