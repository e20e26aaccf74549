import { describe, expect, it } from 'vitest';
import { SlideDetector, changedPixelRatio } from './slide-diff.js';

const sample = (n: number, value: number) => new Uint8Array(n).fill(value);

describe('changedPixelRatio', () => {
  it('counts pixels whose brightness moved by more than 1% of 255 (2.55)', () => {
    const a = sample(100, 100);
    const b = sample(100, 100);
    b[0] = 102; // 2: not a change
    b[1] = 103; // 3: a change
    b[2] = 97; // 3 darker: a change
    expect(changedPixelRatio(a, b)).toBeCloseTo(0.02);
  });

  it('refuses samples of different sizes', () => {
    expect(() => changedPixelRatio(sample(4, 0), sample(5, 0))).toThrow(RangeError);
  });
});

describe('SlideDetector', () => {
  it('calls the first sample a slide, and a later one only when more than 1% of its pixels changed', () => {
    const d = new SlideDetector();
    const base = sample(1000, 200);
    expect(d.isNewSlide(base)).toBe(true);
    expect(d.isNewSlide(sample(1000, 202))).toBe(false); // faint flicker everywhere
    const exactlyOnePercent = sample(1000, 202);
    exactlyOnePercent.fill(20, 0, 10);
    expect(d.isNewSlide(exactlyOnePercent)).toBe(false); // 1% is not more than 1%
    expect(d.isNewSlide(sample(1000, 202))).toBe(false); // back to the clean picture: again only 1%
    const more = sample(1000, 202);
    more.fill(20, 0, 11);
    expect(d.isNewSlide(more)).toBe(true);
  });

  it('compares with the previous sample, so a slow fade does not pile up into a new slide', () => {
    const d = new SlideDetector();
    for (let v = 100; v <= 120; v += 2) expect(d.isNewSlide(sample(500, v))).toBe(v === 100);
  });
});
