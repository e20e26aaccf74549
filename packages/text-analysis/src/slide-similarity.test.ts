import { describe, expect, it } from 'vitest';
import { overlapPercent, overlapWithPrevious, similarToPrevious, wordSet } from './slide-similarity.js';

describe('slide similarity', () => {
  it('reads words as lowercased runs of letters and digits, each once', () => {
    expect([...wordSet('Q3 Revenue: revenue UP 12%, café!')]).toEqual(['q3', 'revenue', 'up', '12', 'café']);
    expect(wordSet('  -- , ').size).toBe(0);
  });

  it('measures overlap as shared words over all words, rounded to a whole percent', () => {
    expect(overlapPercent(wordSet('a b c'), wordSet('a b c'))).toBe(100);
    expect(overlapPercent(wordSet('a b c'), wordSet('a b d'))).toBe(50); // 2 of 4
    expect(overlapPercent(wordSet('a b'), wordSet('a b c'))).toBe(67); // 2 of 3 = 66.7
    expect(overlapPercent(wordSet('a'), wordSet('b'))).toBe(0);
  });

  it('treats two frames without words as the same, and an empty frame after a full one as different', () => {
    expect(overlapPercent(wordSet(''), wordSet('...'))).toBe(100);
    expect(overlapPercent(wordSet('Title'), wordSet(''))).toBe(0);
  });

  it('never marks the first frame, and compares every other frame with the one before it in the list', () => {
    // 20 words, then the same 20 plus one (95%), plus two more (91% against the frame before, 87% against the first).
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const texts = [words.join(' '), [...words, 'x'].join(' '), [...words, 'x', 'y', 'z'].join(' ')];
    const overlaps = overlapWithPrevious(texts);
    expect(overlaps).toEqual([null, 95, 91]);
    expect(similarToPrevious(overlaps, 95)).toEqual([false, true, false]);
    expect(similarToPrevious(overlaps, 90)).toEqual([false, true, true]);
    expect(similarToPrevious(overlaps, 100)).toEqual([false, false, false]);
  });

  it('drops a whole run of repeats, since each repeat matches its neighbour', () => {
    const texts = ['Intro slide', 'Intro slide', 'intro SLIDE', 'Agenda today', 'Agenda today'];
    expect(similarToPrevious(overlapWithPrevious(texts), 95)).toEqual([false, true, true, false, true]);
  });

  it('counts a rounded 94.5% as 95%', () => {
    // 189 shared words of 200 = 94.5%, which rounds to 95 (Math.round rounds halves up).
    const shared = Array.from({ length: 189 }, (_, i) => `s${i}`);
    const a = [...shared, ...Array.from({ length: 5 }, (_, i) => `a${i}`)].join(' ');
    const b = [...shared, ...Array.from({ length: 6 }, (_, i) => `b${i}`)].join(' ');
    expect(overlapWithPrevious([a, b])).toEqual([null, 95]);
    expect(similarToPrevious(overlapWithPrevious([a, b]), 95)).toEqual([false, true]);
  });
});
