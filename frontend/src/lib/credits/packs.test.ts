import { describe, expect, it } from 'vitest';
import { discountPercent, formatPrice } from './packs';

const packs = [
  { credits: 100, priceCents: 100 },
  { credits: 500, priceCents: 500 },
  { credits: 2500, priceCents: 2000 },
];

describe('credit packs', () => {
  it('prints prices the way the pricing text does', () => {
    expect(packs.map((p) => formatPrice(p.priceCents))).toEqual(['$1', '$5', '$20']);
    expect(formatPrice(499)).toBe('$4.99');
  });

  it('shows the 2500 pack as 20% off and the others without a discount', () => {
    expect(packs.map((p) => discountPercent(p, packs))).toEqual([0, 0, 20]);
  });
});
