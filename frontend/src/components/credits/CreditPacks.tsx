import { Skeleton } from '../Skeleton';
import { useGetPublicConfigQuery } from '../../lib/credits/api';
import { discountPercent, formatPrice, type Pack } from '../../lib/credits/packs';

export interface CreditPacksProps {
  /** With it, each pack is a button that buys it; without it, the packs are shown as prices only. */
  onChoose?: (pack: Pack) => void;
  /** The pack being bought: every button waits. */
  pending?: number | null;
}

/** The credit packs on sale, from the server's public config (100 for $1, 500 for $5, 2500 for $20). */
export function CreditPacks({ onChoose, pending }: CreditPacksProps) {
  const { data, isLoading, isError } = useGetPublicConfigQuery();
  if (isLoading)
    return (
      <div className="packs" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height="5.5rem" radius="var(--radius)" />
        ))}
      </div>
    );
  if (isError || !data) return <p className="alert alert--danger">The credit packs could not be loaded. Please reload the page.</p>;

  const packs = data.creditPacks;
  return (
    <div className="packs">
      {packs.map((pack) => {
        const off = discountPercent(pack, packs);
        const body = (
          <>
            <span className="pack__credits">{pack.credits.toLocaleString('en-US')} credits</span>
            {/* The spaces keep the button's accessible name readable: "2,500 credits $20 20% off". */}
            {' '}
            <span className="pack__price">{formatPrice(pack.priceCents)}</span>
            {off > 0 && ' '}
            {off > 0 && <span className="badge badge--success">{off}% off</span>}
            {onChoose && pending === pack.credits && <span className="small muted">Opening the payment page…</span>}
          </>
        );
        return onChoose ? (
          <button key={pack.credits} type="button" className="pack" onClick={() => onChoose(pack)} disabled={pending != null}>
            {body}
          </button>
        ) : (
          <div key={pack.credits} className="pack pack--static">
            {body}
          </div>
        );
      })}
    </div>
  );
}
