import { describe, expect, it } from 'vitest';
import { benchRounds, medianRound } from '../src/index.js';

describe('benchmark rounds', () => {
  it('quotes the middle round, whatever order the rounds ran in', () => {
    const ratio = (r: { ratio: number }) => r.ratio;
    const rounds = [{ ratio: 1.31, n: 1 }, { ratio: 0.95, n: 2 }, { ratio: 1.22, n: 3 }];
    expect(medianRound(rounds, ratio)).toEqual({ ratio: 1.22, n: 3 });
    expect(rounds.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(medianRound([{ ratio: 1.4 }], ratio)).toEqual({ ratio: 1.4 });
    // An even count takes the lower middle: a benchmark never quotes better than a round it ran.
    expect(medianRound([1.1, 1.5, 1.2, 1.3].map((x) => ({ ratio: x })), ratio)).toEqual({ ratio: 1.2 });
    expect(() => medianRound([], ratio)).toThrow(/no rounds/);
  });

  it('runs three rounds unless BENCH_ROUNDS says otherwise, and refuses a count that is no count', () => {
    expect(benchRounds({})).toBe(3);
    expect(benchRounds({ BENCH_ROUNDS: '5' })).toBe(5);
    expect(() => benchRounds({ BENCH_ROUNDS: '0' })).toThrow(/BENCH_ROUNDS must be a whole number of 1 or more, not 0/);
    expect(() => benchRounds({ BENCH_ROUNDS: 'two' })).toThrow(/not two/);
  });
});
