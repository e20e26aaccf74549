import { useState } from 'react';
import { PurchaseCreditsModal } from '../../../components/credits/PurchaseCreditsModal';

/** The cost panel's way to buy credits: the shared Purchase Credits dialog. */
export function PurchaseCredits() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn--primary btn--sm" onClick={() => setOpen(true)}>
        Purchase Credits
      </button>
      {open && <PurchaseCreditsModal onClose={() => setOpen(false)} />}
    </>
  );
}
