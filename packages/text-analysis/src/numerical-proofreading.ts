import { normaliseConfidence, type TextBlock } from './geometry.js';
import type { TrackPoint } from './block-tracking.js';
import { parseValue } from './number-parsing.js';
import { outlierReason, seriesOutliers } from './series-outliers.js';

/*
 * Proofreading the Numerical view's series: which cells a person should check against the picture, and why.
 * A cell is unsure when
 *   - the OCR read it with less than UNSURE_CONFIDENCE percent confidence (unless its neighbours confirm it, below);
 *   - a letter sits inside or against a number ("4G.2", "2O", "l5"): the usual misreads of 0, 1, 5, 6, 8;
 *   - it breaks the series' pattern for one to three frames in a row (MAX_ODD_FRAMES) and the series returns,
 *     against the nearest readable numbers before and after that run:
 *       - every value of the run is about 10, 100 or 1000 times (or a tenth, ...) both of them: a decimal point
 *         lost or gained (at either end of the series, one value against the one neighbour there, when that one
 *         agrees with the number beyond it);
 *       - every value of the run is far from both while they agree with each other: a jump that comes back
 *         (20, 80, 81, 21). "Far" is more than ten times the series' median step between frames and more than a
 *         fifth of the values' size, so a steady counter, or a value that changes level and stays there
 *         (10, 10, 50, 50, 50, 50), is not flagged;
 *   - it is far off the values around it, by series-outliers.ts (a factor of 5 or more from the local medians: 3722
 *     among 37.2s, whatever the blanks between them);
 *   - it is blank between two values of the series: a gap, where the block was not read or read as nothing (blanks
 *     before the series' first value and after its last are the reading not being on screen yet, or any more).
 * A faint reading is not unsure when the frames right before and after it confirm it: both read with confidence
 * (or corrected), without a flag, and it equals both of them, or lies exactly halfway between them (a counter's
 * or a clock's next step: 25 between 24 and 26, 00:05 between 00:04 and 00:06). An OCR misread almost never lands
 * exactly there; a reading that changed for one frame only and was misread as its neighbours would be missed.
 * Corrected cells are never unsure (a person checked them, and an empty correction says the frame has no value),
 * and their corrected values count as neighbours. The rules only point at cells; they never change a value.
 */

/** Confidence (percent) under which a cell is unsure. Clear digits read by Tesseract score 85 to 96. */
export const UNSURE_CONFIDENCE = 70;

/** A block's confidence in percent: its own, or the mean of its words'; null when the engine gave none. */
export function blockConfidence(block: Pick<TextBlock, 'confidence' | 'words'>): number | null {
  if (block.confidence !== undefined) return normaliseConfidence(block.confidence);
  const words = (block.words ?? []).map((w) => w.confidence).filter((c): c is number => c !== undefined);
  if (words.length === 0) return null;
  return words.reduce((sum, c) => sum + normaliseConfidence(c), 0) / words.length;
}

/** Per frame, the confidence of the series' block on it (null where the block is absent or has none). */
export function seriesConfidences(frames: readonly (readonly TextBlock[])[], points: readonly TrackPoint[]): (number | null)[] {
  const confidences = new Array<number | null>(frames.length).fill(null);
  for (const { frame, index } of points) {
    const block = frames[frame]?.[index];
    if (block) confidences[frame] = blockConfidence(block);
  }
  return confidences;
}

// A letter between digits (a decimal point or comma may sit on either side), or one of the letters OCR reads in
// place of a digit glued to a digit: O o for 0, I l for 1, S for 5, G b for 6, B for 8.
const LETTER_BETWEEN_DIGITS = /\d[.,]?\p{L}+[.,]?\d/u;
const LOOKALIKE_AGAINST_DIGIT = /(?:^|[^\p{L}])[OoIlSGB][.,]?\d|\d[.,]?[OoIlSGBb](?![\p{L}])/u;

export function hasLetterInNumber(value: string): boolean {
  return LETTER_BETWEEN_DIGITS.test(value) || LOOKALIKE_AGAINST_DIGIT.test(value);
}

const POWER_OF_TEN_TOLERANCE = Math.log10(1.2);
const JUMP_STEPS = 10;
const JUMP_SHARE = 0.2;
/** The longest run of odd values that returns to the pattern and is flagged; a longer one is a change of level. */
export const MAX_ODD_FRAMES = 3;

/** 1, 2 or 3 when a / b is about 10 to that power (or its inverse); 0 otherwise. */
function powerOfTenApart(a: number, b: number): number {
  if (a === 0 || b === 0 || Math.sign(a) !== Math.sign(b)) return 0;
  const exponent = Math.log10(Math.abs(a / b));
  const nearest = Math.round(exponent);
  return nearest !== 0 && Math.abs(nearest) <= 3 && Math.abs(exponent - nearest) < POWER_OF_TEN_TOLERANCE ? nearest : 0;
}

/** What a power of ten between a value and its neighbour suggests: 3722 for 37.2 is digits run together, or the point lost. */
function decimalPointWhat(value: number, neighbour: number): string {
  if (Math.abs(value) < Math.abs(neighbour)) return 'decimal point misplaced?';
  return powerOfTenApart(value, neighbour) >= 2 ? 'digits run together or decimal point lost?' : 'decimal point lost?';
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface ProofreadInput {
  /** The cell values per frame ('' where the block is absent), corrections already applied. */
  values: readonly string[];
  /** Per frame, the reading's confidence in percent, or null. */
  confidences: readonly (number | null)[];
  /** Per frame, true where a person corrected the value. */
  corrected: readonly boolean[];
}

/** The reason a gap between two values of a series gives. */
export const BLANK_REASON = 'no value read';

export interface Proofread {
  /** Per frame, why its cell is unsure (empty when it is not): sentences for a tooltip. */
  reasons: string[][];
  /** Per frame, true where the value breaks the series' pattern (a jump, an outlier): the chart leaves it off its line. */
  offPattern: boolean[];
}

/** Per frame, why its cell is unsure (empty when it is not): sentences for a tooltip. */
export function unsureReasons(input: ProofreadInput): string[][] {
  return proofread(input).reasons;
}

export function proofread({ values, confidences, corrected }: ProofreadInput): Proofread {
  const reasons = values.map(() => [] as string[]);
  const letters = values.map((v) => v !== '' && hasLetterInNumber(v));
  // The numbers the pattern rules compare: cells that read as a number without a letter in it.
  const numbers = values.map((v, i) => (v === '' || letters[i] ? null : (parseValue(v, { times: false })?.value ?? null)));
  const present = numbers.flatMap((n, i) => (n === null ? [] : [i]));
  const steps = present.slice(1).map((at, k) => Math.abs(numbers[at]! - numbers[present[k]!]!));
  const typicalStep = median(steps);

  const far = (a: number, b: number) => Math.abs(a - b) > Math.max(JUMP_STEPS * typicalStep, JUMP_SHARE * Math.max(Math.abs(a), Math.abs(b)));

  // Short runs between two readable values, shortest first: a cell flagged in a shorter run is not part of a longer one.
  for (let length = 1; length <= MAX_ODD_FRAMES; length++) {
    for (let k = 1; k + length < present.length; k++) {
      const run = present.slice(k, k + length);
      if (run.some((at) => corrected[at] || reasons[at]!.length > 0)) continue;
      const before = present[k - 1]!;
      const after = present[k + length]!;
      const [b, a] = [numbers[before]!, numbers[after]!];
      const runValues = run.map((at) => numbers[at]!);
      const shown = run.map((at) => values[at]).join(', ');
      if (runValues.every((v) => powerOfTenApart(v, b) !== 0 && powerOfTenApart(v, a) !== 0)) {
        const what = decimalPointWhat(runValues[0]!, b);
        const reason = length === 1 ? `jumps from ${values[before]} to ${shown}: ${what}` : `jumps from ${values[before]} to ${shown} and back to ${values[after]}: ${what}`;
        for (const at of run) reasons[at]!.push(reason);
      } else if (!far(b, a) && runValues.every((v) => far(v, b) && far(v, a))) {
        for (const at of run) reasons[at]!.push(`jumps from ${values[before]} to ${shown} and back to ${values[after]}`);
      }
    }
  }

  // At either end of the series, a lost decimal point against the one neighbour, when that one agrees with the value
  // beyond it (45.3, 455, 45.8 at the end flags 455, not 45.8).
  for (const [at, neighbour, beyond] of [
    [present[0], present[1], present[2]],
    [present.at(-1), present.at(-2), present.at(-3)],
  ] as const) {
    if (at === undefined || neighbour === undefined || at === neighbour || corrected[at] || reasons[at]!.length > 0) continue;
    const value = numbers[at]!;
    const settled = beyond === undefined || beyond === at || powerOfTenApart(numbers[neighbour]!, numbers[beyond]!) === 0;
    if (settled && powerOfTenApart(value, numbers[neighbour]!) !== 0) {
      reasons[at]!.push(`jumps from ${values[neighbour]} to ${values[at]}: ${decimalPointWhat(value, numbers[neighbour]!)}`);
    }
  }

  // Far off the values around it, where the rules above found nothing.
  seriesOutliers(numbers).forEach((outlier, i) => {
    if (outlier && !corrected[i] && reasons[i]!.length === 0) reasons[i]!.push(outlierReason(outlier));
  });
  // Off the pattern: those, and a number with a letter in it read far off the others (4G.2 read as 4 among 46s).
  const asRead = values.map((v, i) => (letters[i] ? (parseValue(v, { times: false })?.value ?? null) : numbers[i]!));
  const farAsRead = seriesOutliers(asRead);
  const offPattern = reasons.map((r, i) => r.length > 0 || (letters[i]! && farAsRead[i] !== null));

  // A faint reading the frames either side confirm (see above). A neighbour without a confidence confirms nothing.
  const isSure = (i: number) => corrected[i] || (values[i] !== '' && !letters[i] && (confidences[i] ?? 0) >= UNSURE_CONFIDENCE && reasons[i]!.length === 0);
  const confirmed = (i: number) => {
    const [before, after] = [i - 1, i + 1];
    if (before < 0 || after >= values.length || !isSure(before) || !isSure(after)) return false;
    if (values[i] === values[before] && values[i] === values[after]) return true;
    // A time's seconds (11:59, 12:00, 12:01 are evenly spaced), else the number the rules compare.
    const reading = (k: number): number | null => {
      const time = parseValue(values[k]!);
      return time?.kind === 'time' ? time.value : (numbers[k] ?? null);
    };
    const [b, v, a] = [reading(before), reading(i), reading(after)];
    return b !== null && v !== null && a !== null && b !== a && Math.abs(2 * v - (b + a)) <= 1e-9 * Math.max(1, Math.abs(v));
  };

  const filled = values.flatMap((v, i) => (v === '' ? [] : [i]));
  const [first, last] = [filled[0] ?? values.length, filled.at(-1) ?? -1];
  values.forEach((v, i) => {
    if (corrected[i]) return;
    if (v === '') {
      if (i > first && i < last) reasons[i]!.push(BLANK_REASON);
      return;
    }
    if (letters[i]) reasons[i]!.push('letter in a number');
    const confidence = confidences[i];
    if (confidence !== null && confidence !== undefined && confidence < UNSURE_CONFIDENCE && (reasons[i]!.length > 0 || !confirmed(i))) {
      reasons[i]!.unshift(`confidence ${Math.round(confidence)} %`);
    }
  });
  return { reasons, offPattern };
}
