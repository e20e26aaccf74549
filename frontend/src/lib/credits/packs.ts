/** A credit pack as /api/config lists it. */
export interface Pack {
  credits: number;
  priceCents: number;
}

/** "$1", "$20", "$4.99". */
export function formatPrice(cents: number): string {
  return `$${cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)}`;
}

/** Percent saved against the price per credit of the smallest pack, rounded; 0 when none. */
export function discountPercent(pack: Pack, packs: readonly Pack[]): number {
  const base = Math.max(...packs.map((p) => p.priceCents / p.credits));
  const saved = 1 - pack.priceCents / pack.credits / base;
  return saved > 0.005 ? Math.round(saved * 100) : 0;
}
