/*
 * Readings far off the rest of their series: a decimal point lost (372 for 37.2), digits run together (3722 for
 * 37.2), or any value that lands far from the values around it and is gone again.
 *
 * Each readable value is compared with the median of the OUTLIER_WINDOW nearest readable values before it and the
 * median of the OUTLIER_WINDOW nearest after it (blanks are skipped, so a series that is blank on most frames still
 * compares its values with each other; where a side holds an even count, the middle value farther from the one
 * compared). It is an outlier when it is far from both; at either end of the series, from the one side there, when
 * that side holds two values or more and the nearest of them is not far from it (else the series has just changed
 * level). Far is a factor of OUTLIER_FACTOR or more apart and more than OUTLIER_STEPS times the median step between
 * the values around it (the series without it), so a start from 0, a steady climb or noise around a level is never far.
 * A value that jumps once and stays matches the values after it, so a real change of level is not an outlier; up
 * to MAX_OUTLIER_RUN odd values in a row are, and a longer run of values alike is a level of its own.
 */

/** Readable values each side a value is compared with. */
export const OUTLIER_WINDOW = 5;
/** The longest run of odd values in a row that is flagged; a longer one is a change of level. */
export const MAX_OUTLIER_RUN = 3;
/** How many times larger (or smaller) than the values around it a value must be to be far off. */
export const OUTLIER_FACTOR = 5;
/** How many of the series' median steps away a value must be to be far off. */
export const OUTLIER_STEPS = 10;

export interface Outlier {
  /** The local median: of the readable values it was compared with, both sides together. */
  around: number;
  /** The value divided by `around` (Infinity when `around` is 0 or of the other sign). */
  factor: number;
}

/** The median; of an even count, the middle value farther from `from`. */
function medianFrom(values: readonly number[], from: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2) return sorted[mid]!;
  const [low, high] = [sorted[mid - 1]!, sorted[mid]!];
  return Math.abs(from - low) >= Math.abs(from - high) ? low : high;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** How many times apart two numbers are (>= 1); Infinity across zero or a change of sign. */
function timesApart(a: number, b: number): number {
  if (a === b) return 1;
  if (a === 0 || b === 0 || Math.sign(a) !== Math.sign(b)) return Number.POSITIVE_INFINITY;
  const ratio = Math.abs(a / b);
  return ratio >= 1 ? ratio : 1 / ratio;
}

/** Per frame, how the value is far off the values around it, or null (a blank is never an outlier). */
export function seriesOutliers(numbers: readonly (number | null)[]): (Outlier | null)[] {
  const out = numbers.map((): Outlier | null => null);
  const present = numbers.flatMap((n, i) => (n === null || !Number.isFinite(n) ? [] : [i]));
  if (present.length < 3) return out;
  // Far: OUTLIER_FACTOR times apart, and more than OUTLIER_STEPS of the steps between the values around it.
  const far = (value: number, around: number, gap: number) => timesApart(value, around) >= OUTLIER_FACTOR && Math.abs(value - around) > gap;

  const windows = present.map((_, k) => ({
    before: present.slice(Math.max(0, k - OUTLIER_WINDOW), k).map((i) => numbers[i]!),
    after: present.slice(k + 1, k + 1 + OUTLIER_WINDOW).map((i) => numbers[i]!),
  }));
  const gaps = windows.map(({ before, after }) => {
    const around = [...before, ...after];
    return OUTLIER_STEPS * median(around.slice(1).map((v, i) => Math.abs(v - around[i]!)));
  });
  const flags = present.map((at, k) => {
    const value = numbers[at]!;
    const { before, after } = windows[k]!;
    const gap = gaps[k]!;
    if (before.length > 0 && after.length > 0) return far(value, medianFrom(before, value), gap) && far(value, medianFrom(after, value), gap);
    const side = before.length > 0 ? before : after;
    const nearest = before.length > 0 ? side.at(-1)! : side[0]!;
    return side.length >= 2 && !far(nearest, median(side), gap) && far(value, median(side), gap);
  });

  // A flagged value among more than MAX_OUTLIER_RUN values alike in a row is a level the series moved to.
  const levelLength = (k: number) => {
    const value = numbers[present[k]!]!;
    const alike = (j: number) => !far(numbers[present[j]!]!, value, gaps[k]!);
    let [first, last] = [k, k];
    while (first > 0 && alike(first - 1)) first--;
    while (last < present.length - 1 && alike(last + 1)) last++;
    return last - first + 1;
  };
  present.forEach((at, k) => {
    if (!flags[k] || levelLength(k) > MAX_OUTLIER_RUN) return;
    const { before, after } = windows[k]!;
    const around = median([...before, ...after]);
    out[at] = { around, factor: around === 0 ? Number.POSITIVE_INFINITY : numbers[at]! / around };
  });
  return out;
}

const POWER_OF_TEN_TOLERANCE = 1.25;
const shown = (n: number) => String(Math.round(n * 100) / 100);

/** Why a value is an outlier, for the cell's tooltip: "about 100 times the values around it (37.2): ...". */
export function outlierReason(outlier: Outlier): string {
  const { around, factor } = outlier;
  const size = Math.abs(factor);
  const exponent = Number.isFinite(size) && size > 0 ? Math.round(Math.log10(size)) : 0;
  const nearPower = exponent !== 0 && Math.abs(exponent) <= 3 && timesApart(size, 10 ** exponent) < POWER_OF_TEN_TOLERANCE;
  const context = `the values around it (${shown(around)})`;
  if (nearPower && exponent > 0) {
    return `about ${10 ** exponent} times ${context}: ${exponent === 1 ? 'decimal point lost?' : 'digits run together or decimal point lost?'}`;
  }
  if (nearPower) return `about ${exponent === -1 ? 'a tenth' : `1/${10 ** -exponent}`} of ${context}: decimal point misplaced?`;
  return `far off ${context}`;
}
