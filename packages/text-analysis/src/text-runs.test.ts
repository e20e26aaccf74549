import { describe, expect, it } from 'vitest';
import { splitAtWideGaps } from './text-runs.js';

interface Word {
  text: string;
  rect: { x: number; y: number; w: number; h: number };
}
const word = (text: string, x: number, w: number, h = 30): Word => ({ text, rect: { x, y: 0, w, h } });
const texts = (runs: Word[][]) => runs.map((r) => r.map((w) => w.text).join(' '));
const split = (row: Word[]) => texts(splitAtWideGaps(row, (w) => w.rect));

describe('splitAtWideGaps', () => {
  it('keeps running text together', () => {
    // Word gaps of 10 px at a height of 30.
    expect(split([word('Charging', 0, 120), word('at', 130, 30), word('full', 170, 50), word('speed', 230, 80)])).toEqual(['Charging at full speed']);
  });

  it('splits a label from a value far to its right', () => {
    // Average height 50 px, so gaps over 75 px split: 200 px after "Battery" does, 10 px after "45%" does not.
    expect(split([word('Battery', 80, 140, 30), word('45%', 420, 120, 60), word('now', 550, 60, 60)])).toEqual(['Battery', '45% now']);
  });

  it('measures a gap from the run’s right edge, keeps a gap exactly at the limit, and gives nothing for nothing', () => {
    // "b" starts inside "wide" (which reaches 200): no gap, whatever "a" ended at.
    expect(split([word('wide', 0, 200), word('a', 20, 10), word('b', 150, 10)])).toEqual(['wide a b']);
    expect(split([word('a', 0, 10), word('b', 55, 10)])).toEqual(['a b']);
    expect(splitAtWideGaps([], (w: Word) => w.rect)).toEqual([]);
  });
});
