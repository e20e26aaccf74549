import { describe, expect, it } from 'vitest';
import { isImplausibleWordBox, isValueWord, readableRuns, splitAtWideGaps } from './text-runs.js';

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

describe('readableRuns', () => {
  interface W {
    text: string;
    confidence: number;
    rect: { x: number; y: number; w: number; h: number };
  }
  const w = (text: string, x: number, confidence = 90, wid = 100): W => ({ text, confidence, rect: { x, y: 10, w: wid, h: 30 } });
  const rules = { minConfidence: 80, imageWidth: 1000, imageHeight: 500 };

  it('trims, drops blank, unsure and implausible words, then cuts at wide gaps', () => {
    const runs = readableRuns([w(' Battery ', 10), w('  ', 120), w('smudge', 230, 40), w('45%', 600), w('edge', 950)], (x) => x.rect, rules);
    expect(runs.map((r) => r.map((x) => x.text))).toEqual([['Battery'], ['45%']]);
  });

  it('spares a number and the unit after it from the floor on request (numerical uploads), and nothing else', () => {
    // Tesseract read a yellow reading on blue right but called it 2 % sure; the junk after it is as unsure.
    const line = [w('Temperature', 10, 95, 200), w('36.7', 300, 2), w('C', 410, 2, 30), w('ai', 460, 2, 30), w('ready', 700, 3)];
    const read = (keepValues: boolean) => readableRuns(line, (x) => x.rect, { ...rules, keepValues }).map((r) => r.map((x) => x.text));
    expect(read(false)).toEqual([['Temperature']]);
    expect(read(true)).toEqual([['Temperature'], ['36.7', 'C']]);
  });

  it('takes a number or a time alone for a value word, with a sign, a currency or a % or ° against it', () => {
    for (const text of ['36.7', '00:12', '-4,5%', '−3', '$4.99', '21°', '1,234']) expect(isValueWord(text), text).toBe(true);
    for (const text of ['2nd', '1lI', 'V12', '36.7C', 'kW', '12:75', '4.', '']) expect(isValueWord(text), text).toBe(false);
  });

  it('knows an implausible box: empty, outside, or the whole frame', () => {
    expect(isImplausibleWordBox({ x: 0, y: 0, w: 0, h: 10 }, 100, 100)).toBe(true);
    expect(isImplausibleWordBox({ x: 90, y: 0, w: 20, h: 10 }, 100, 100)).toBe(true);
    expect(isImplausibleWordBox({ x: 0, y: 0, w: 100, h: 100 }, 100, 100)).toBe(true);
    expect(isImplausibleWordBox({ x: 5, y: 5, w: 20, h: 10 }, 100, 100)).toBe(false);
  });
});
