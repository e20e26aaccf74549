import { describe, expect, it } from 'vitest';
import { outlierReason, seriesOutliers } from './series-outliers.js';

/** The frames flagged as outliers. */
const flagged = (numbers: (number | null)[]) => seriesOutliers(numbers).flatMap((o, i) => (o ? [i] : []));
const climb = (length: number, start: number, step: number) => Array.from({ length }, (_, s) => start + step * s);

describe('seriesOutliers', () => {
  it('flags a ten-times spike and a lost decimal point, and nothing else', () => {
    expect(flagged([20, 21, 22, 230, 23, 24])).toEqual([3]);
    const lost = seriesOutliers([45.1, 45.3, 455, 45.8, 46.0]);
    expect(lost.map((o) => o !== null)).toEqual([false, false, true, false, false]);
    expect(lost[2]!.factor).toBeCloseTo(455 / 45.55, 3);
    expect(outlierReason(lost[2]!)).toBe('about 10 times the values around it (45.55): decimal point lost?');
    // A decimal point gained, and a lost one on the last frame, against the values before it.
    expect(outlierReason(seriesOutliers([45.1, 45.3, 4.55, 45.8, 46.0])[2]!)).toBe('about a tenth of the values around it (45.55): decimal point misplaced?');
    expect(flagged([45.1, 45.3, 45.5, 45.8, 460])).toEqual([4]);
  });

  it('flags digits run together among runs of blanks: the values either side are compared, however far', () => {
    // A phone-filmed temperature, blank on most frames, one reading 3722 for 37.2.
    const temperature = [37.1, null, null, null, 37.2, null, 3722, null, null, null, null, 37.3, null, 37.2, null, null];
    const outliers = seriesOutliers(temperature);
    expect(outliers.flatMap((o, i) => (o ? [i] : []))).toEqual([6]);
    expect(outlierReason(outliers[6]!)).toBe('about 100 times the values around it (37.2): digits run together or decimal point lost?');
    // Blanks are never outliers, and a series of blanks has none.
    expect(flagged([null, null, null])).toEqual([]);
  });

  it('flags up to three odd values in a row that the series returns from, at the start too', () => {
    expect(flagged([12.1, 12.1, 12.2, 122, 123, 12.3, 12.4, 12.4])).toEqual([3, 4]);
    expect(flagged([36.5, 36.6, 36.7, 367, 368, 369, 36.9, 37.0, 37.0])).toEqual([3, 4, 5]);
    expect(flagged([455, 45.8, 46.0, 46.1])).toEqual([0]);
  });

  it('does not flag a series that really changes: a steady climb, a start from zero, a step that stays', () => {
    // Launch telemetry: speed and altitude rising every second.
    expect(flagged(climb(60, 1000, 137))).toEqual([]);
    expect(flagged(climb(60, 2, 1.7))).toEqual([]);
    // Rising from a standstill: 0 is far from 20 by any factor, but only a couple of the series' steps away.
    expect(flagged([0, 4, 11, 19, 28, 38, 49, 61, 74])).toEqual([]);
    // A value that jumps ten times once and stays, however long before the end.
    expect(flagged([12, 12, 12, 12, 12, 12, 120, 120, 120, 120, 120, 120])).toEqual([]);
    expect(flagged([10, 10, 10, 10, 10, 100, 100])).toEqual([]);
    expect(flagged([50, 50, 51, 150, 150, 149, 150, 148, 149, 150])).toEqual([]);
    // A level that lasts four frames is a change, not an odd run.
    expect(flagged([10, 10, 10, 10, 100, 100, 100, 100, 10, 10, 10, 10])).toEqual([]);
    // Crossing zero, and noise around a small level.
    expect(flagged([1.0, 0.2, -0.6, -1.4, -2.2, -3.0])).toEqual([]);
    expect(flagged([0, 0, 1, 0, 0, 2, 0, 1, 0])).toEqual([]);
    expect(flagged(Array.from({ length: 60 }, (_, s) => 37 + 0.3 * Math.sin(s * 1.7)))).toEqual([]);
  });

  it('says how far a value is when it is no power of ten off', () => {
    expect(outlierReason({ around: 22, factor: 80 / 22 })).toBe('far off the values around it (22)');
    expect(outlierReason({ around: 0, factor: Number.POSITIVE_INFINITY })).toBe('far off the values around it (0)');
    expect(outlierReason({ around: 1.5, factor: 1000 })).toBe('about 1000 times the values around it (1.5): digits run together or decimal point lost?');
  });
});
