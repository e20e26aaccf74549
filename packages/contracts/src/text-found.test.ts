import { describe, expect, it } from 'vitest';
import { creditsCaptured, foundAlmostNoText, textFoundIn } from './rules.js';

describe('textFoundIn', () => {
  it('counts frames, frames with any text and words', () => {
    expect(textFoundIn(['', '  ', '12.5 kW', 'SOC\n80 %'])).toEqual({ frames: 4, framesWithText: 2, words: 5 });
    expect(textFoundIn([])).toEqual({ frames: 0, framesWithText: 0, words: 0 });
  });
});

describe('foundAlmostNoText', () => {
  const found = (frames: number, framesWithText: number, words: number) => ({ frames, framesWithText, words });

  it('holds when no frame has text, however many frames', () => {
    expect(foundAlmostNoText(found(120, 0, 0))).toBe(true);
    expect(foundAlmostNoText(found(1, 0, 0))).toBe(true);
    expect(foundAlmostNoText(found(0, 0, 0))).toBe(true);
  });

  it('holds for text on under 5 % of the frames and under 10 words', () => {
    expect(foundAlmostNoText(found(120, 1, 1))).toBe(true);
    expect(foundAlmostNoText(found(120, 5, 9))).toBe(true);
  });

  it('does not hold at 5 % of the frames, or at 10 words', () => {
    expect(foundAlmostNoText(found(20, 1, 1))).toBe(false);
    expect(foundAlmostNoText(found(120, 6, 6))).toBe(false);
    expect(foundAlmostNoText(found(120, 2, 10))).toBe(false);
  });

  it('does not hold for one photo with one word on it', () => {
    expect(foundAlmostNoText(found(1, 1, 1))).toBe(false);
  });
});

describe('creditsCaptured', () => {
  it('charges the frames read, text or not, never more than was held', () => {
    expect(creditsCaptured(120, 'server', 12)).toBe(12);
    expect(creditsCaptured(118, 'server', 12)).toBe(12);
    expect(creditsCaptured(100, 'cloud', 120)).toBe(100);
    expect(creditsCaptured(0, 'cloud', 120)).toBe(0);
    expect(creditsCaptured(360, 'cloud', 50)).toBe(50);
  });
});
