import { describe, expect, it } from 'vitest';
import { benchRounds, median } from '../src/index.js';

describe('benchmark rounds', () => {
  it('quotes the middle round, whatever order the rounds ran in', () => {
    expect(median([1.31, 0.95, 1.22])).toBe(1.22);
    expect(median([1.4])).toBe(1.4);
    // An even count takes the lower middle: a benchmark never quotes better than a round it ran.
    expect(median([1.1, 1.5, 1.2, 1.3])).toBe(1.2);
  });

  it('runs three rounds unless BENCH_ROUNDS says otherwise, and refuses a count that is no count', () => {
    expect(benchRounds({})).toBe(3);
    expect(benchRounds({ BENCH_ROUNDS: '5' })).toBe(5);
    expect(() => benchRounds({ BENCH_ROUNDS: '0' })).toThrow(/BENCH_ROUNDS must be a whole number of 1 or more, not 0/);
    expect(() => benchRounds({ BENCH_ROUNDS: 'two' })).toThrow(/not two/);
  });
});
