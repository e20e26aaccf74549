import type { Rect } from './geometry.js';

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
