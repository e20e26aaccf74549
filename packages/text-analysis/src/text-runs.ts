import type { Rect } from './geometry.js';
import { parseValue } from './number-parsing.js';

/*
 * Where one run of text ends and another begins on the same row: a label and its value far to its right, two
 * table columns, a price set apart at the right. OCR engines often report such a row as one line; the Scroll view
 * counts its runs as segments, and the Basic engine (ocr-tesseract) reports each run as a detection of its own.
 */

/** A horizontal gap wider than this many text heights (the row's average) separates two runs. */
export const WIDE_GAP_FACTOR = 1.5;

/**
 * Cuts one row's items, given left to right, wherever the gap between the run so far and the next item is wider
 * than 1.5 times the row's average height. Word spacing in running text stays well under one height.
 */
export function splitAtWideGaps<T>(row: readonly T[], rectOf: (item: T) => Rect): T[][] {
  if (row.length === 0) return [];
  const height = row.reduce((sum, item) => sum + rectOf(item).h, 0) / row.length;
  const runs: T[][] = [];
  let run: T[] = [];
  let runRight = -Infinity;
  for (const item of row) {
    const rect = rectOf(item);
    if (run.length > 0 && rect.x - runRight > WIDE_GAP_FACTOR * height) {
      runs.push(run);
      run = [];
    }
    run.push(item);
    runRight = Math.max(runRight, rect.x + rect.w);
  }
  runs.push(run);
  return runs;
}

/**
 * A box that cannot be a word on an image of this size: not finite, empty, outside the image, or the whole frame
 * (an engine reading a border or a texture, not text).
 */
export function isImplausibleWordBox(rect: Rect, imageWidth: number, imageHeight: number): boolean {
  if (![rect.x, rect.y, rect.w, rect.h].every(Number.isFinite)) return true;
  if (rect.w <= 0 || rect.h <= 0) return true;
  if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > imageWidth || rect.y + rect.h > imageHeight) return true;
  return rect.w >= imageWidth * 0.98 && rect.h >= imageHeight * 0.9;
}

/** What the Tesseract engines (the Basic one on the server, the Local one in the browser) keep of a text line. */
export interface LineRules {
  /** Words read with less confidence (0..100) are dropped. */
  minConfidence: number;
  /**
   * Spare values from the floor: a number (`36.7`, `00:12`, `-4,5%`) and a short unit right after it (`C`, `rpm`,
   * `km/h`) are kept whatever their confidence. On a numerical upload the numbers are the point, and Tesseract often
   * reads a coloured reading right while calling it unsure (1 %); the confidence stays with the word, so the views
   * can still mark it unsure.
   */
  keepValues?: boolean;
  imageWidth: number;
  imageHeight: number;
}

/**
 * One line of words as Tesseract gives it, left to right, made readable by the rules both Tesseract engines share:
 * texts trimmed; blank words, words under the confidence floor and implausible boxes dropped; then the line cut at
 * wide gaps (splitAtWideGaps), so a dashboard's label and its value far to the right are separate runs on every frame.
 */
export function readableRuns<T extends { text: string; confidence: number }>(line: readonly T[], rectOf: (word: T) => Rect, rules: LineRules): T[][] {
  const words = line.map((w) => ({ ...w, text: w.text.trim() }));
  const spared = (i: number) => rules.keepValues === true && (isValueWord(words[i]!.text) || (i > 0 && isValueWord(words[i - 1]!.text) && isUnitWord(words[i]!.text)));
  const kept = words.filter(
    (w, i) => w.text.length > 0 && (w.confidence >= rules.minConfidence || spared(i)) && !isImplausibleWordBox(rectOf(w), rules.imageWidth, rules.imageHeight),
  );
  return splitAtWideGaps(kept, rectOf);
}

/**
 * The symbols a value word may end in. Letters against the digits ("2nd", "1lI") are OCR noise as often as a unit,
 * and Tesseract gives a unit in letters as a word of its own (isUnitWord).
 */
const WORD_UNIT = /^[%°]$/u;

/** A number or a time as a reading shows it, alone in the word: an optional sign, currency before, % or ° after. */
export function isValueWord(text: string): boolean {
  const value = parseValue(text, { find: 'whole', currency: true });
  return value !== null && value.label === '' && (value.unit === null || WORD_UNIT.test(value.unit));
}

/** A unit written after a number: a few letters, optionally with a degree sign or a slash (`°C`, `rpm`, `km/h`). */
const UNIT_WORD = /^[°µ%]?\p{L}{1,3}(?:\/\p{L}{1,2})?$/u;
const isUnitWord = (text: string): boolean => UNIT_WORD.test(text);
