import { describe, expect, it } from 'vitest';
import { containment, iou, mergeRuns, runCandidate, sortByReadingOrder, wantsMaskPass } from './two-pass.js';

interface W {
  text: string;
  confidence: number;
  rect: { x: number; y: number; w: number; h: number };
}
const word = (text: string, x: number, confidence: number, y = 10): W => ({ text, confidence, rect: { x, y, w: 50, h: 20 } });
const texts = (runs: { words: W[] }[]) => runs.map((r) => r.words.map((w) => w.text).join(' '));

describe('the second (white mask) pass', () => {
  it('runs for a little near-white over a picture, not for a white page or a frame without white', () => {
    expect(wantsMaskPass('auto', 0.02, 'numerical')).toBe(true);
    expect(wantsMaskPass('auto', 0.9, 'presentation')).toBe(false);
    expect(wantsMaskPass('auto', 0.0001)).toBe(false);
    expect(wantsMaskPass('auto', 0.9, 'captions')).toBe(true);
    expect(wantsMaskPass('never', 0.02, 'captions')).toBe(false);
    expect(wantsMaskPass('always', 0)).toBe(true);
  });

  it('merges the passes: one reading per spot, the more confident, and all that only one pass saw, in reading order', () => {
    const bare = runCandidate([word('HOTE1', 100, 40), word('river', 160, 60)]);
    const mask = runCandidate([word('HOTEL', 101, 95), word('river', 161, 96)]);
    const onlyBare = runCandidate([word('1959', 400, 90, 200)]);
    expect(texts(mergeRuns([onlyBare, bare, mask], (w) => w.rect))).toEqual(['HOTEL river', '1959']);
    const partly = mergeRuns([runCandidate([word('Battery', 10, 90), word('85%', 70, 90)]), runCandidate([word('85%', 71, 97)])], (w) => w.rect);
    expect(texts(partly)).toEqual(['Battery', '85%']);
    expect(partly[0]!.confidence).toBe(90);
  });

  it('measures overlap and orders by rows', () => {
    const a = { x: 0, y: 0, w: 10, h: 10 };
    expect(iou(a, { x: 5, y: 0, w: 10, h: 10 })).toBeCloseTo(1 / 3);
    expect(containment(a, { x: 2, y: 2, w: 4, h: 4 })).toBe(1);
    expect(sortByReadingOrder([{ x: 50, y: 12, w: 5, h: 10 }, { x: 0, y: 40, w: 5, h: 10 }, { x: 0, y: 10, w: 5, h: 10 }], (r) => r).map((r) => [r.x, r.y])).toEqual([
      [0, 10],
      [50, 12],
      [0, 40],
    ]);
  });
});
