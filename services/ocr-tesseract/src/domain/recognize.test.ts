import { describe, expect, it } from 'vitest';
import { maskOverBare, type Candidate } from './recognize.js';

/** A run of words laid out left to right from `left` on one row, 20 px a character plus 10 px between words. */
function run(texts: string[], confidence: number, left = 100): Candidate {
  let x = left;
  const words = texts.map((text) => {
    const box = { left: x, top: 50, width: text.length * 20, height: 30 };
    x += box.width + 10;
    return { text, confidence, box };
  });
  return { confidence, words };
}
const texts = (cs: Candidate[]) => cs.map((c) => c.words.map((w) => w.text).join(' '));

describe('maskOverBare: one reading per spot', () => {
  it("keeps the mask's crisper letters where both passes read the same spot", () => {
    expect(texts(maskOverBare([run(['146', 'kW'], 91)], [run(['146', 'kw'], 93)]))).toEqual(['146 kW']);
  });

  it("keeps the bare pass's spacing where the readings differ only in spaces", () => {
    expect(texts(maskOverBare([run(['36.5C'], 89)], [run(['36.5', 'C'], 70)]))).toEqual(['36.5 C']);
  });

  it('keeps the bare reading where the bare pass is clearly surer (the mask was broken up)', () => {
    expect(texts(maskOverBare([run(['336', 'rpm'], 60)], [run(['430', 'rpm'], 95)]))).toEqual(['430 rpm']);
  });

  it('keeps what only one pass read', () => {
    const merged = texts(maskOverBare([run(['88%'], 90, 400)], [run(['Battery'], 95, 100), run(['87%'], 80, 400)]));
    expect(merged.sort()).toEqual(['88%', 'Battery']);
  });
});
