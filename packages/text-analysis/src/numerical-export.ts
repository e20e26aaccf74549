import { BOM, csvCell, csvFile, quotedCsvCell } from './csv.js';
import { boundsOf, type TextBlock } from './geometry.js';
import type { TrackPoint } from './block-tracking.js';
import { commonUnit } from './number-parsing.js';
import { inReadingOrder } from './screen-order.js';
import { exportFileName } from './results-frames.js';
import { cleanBlockText, type BlockSettings } from './text-cleaning.js';
import { clockDecimals, formatClock } from './time.js';

/*
 * The Numerical view's series and its CSV (`<upload name>-results.csv`): columns Frame, Time (m:ss, or m:ss.s when frames are
 * under a second apart), then one per series, named in
 * quotes, in the series' screen order (top first, left to right along a line). When any of a series' blocks
 * carries its text before translation, the series takes two columns: "<name> (translated)" and
 * "<name> (original)". One row per frame; a frame without the block leaves its cell empty.
 */

/** The Numerical view's exports: `<upload name>-results.csv`, `.txt` and `.json`. */
export const numericalFileName = (uploadName: string, ext: 'csv' | 'txt' | 'json') => exportFileName(uploadName, 'results', ext);

/** One series, ready for the table, the chart and the CSV. */
export interface SeriesValues {
  /** The column name: the series name, or the block id when the name is empty. */
  name: string;
  /** Cleaned text per frame ('' where the block is absent). */
  values: string[];
  /** Cleaned original (pre-translation) text per frame, or null when no block of the series has one. */
  originals: string[] | null;
  /** Mean of the blocks' vertical centres, in pixels (Infinity when the series has no block). */
  averageY: number;
  /** Mean of the blocks' horizontal centres and heights, in pixels: with averageY, the series' place on screen. */
  averageX: number;
  averageHeight: number;
  /** Frames the block is on. */
  count: number;
  /** The unit most of its readings show after their number, before cleaning ("%", "kW"), or null. */
  unit: string | null;
}

/** A series' values per frame from its track points and cleaning settings. */
export function seriesValues(
  frames: readonly (readonly TextBlock[])[],
  points: readonly TrackPoint[],
  name: string,
  settings: Omit<BlockSettings, 'seriesName'>,
): SeriesValues {
  const values = new Array<string>(frames.length).fill('');
  const originals = new Array<string>(frames.length).fill('');
  let hasOriginal = false;
  let [xSum, ySum, hSum] = [0, 0, 0];
  let count = 0;
  const texts: string[] = [];
  for (const { frame, index } of points) {
    const block = frames[frame]?.[index];
    if (!block) continue;
    texts.push(block.text);
    values[frame] = cleanBlockText(block.text, settings);
    if (block.originalText !== undefined) {
      hasOriginal = true;
      originals[frame] = cleanBlockText(block.originalText, settings);
    }
    const box = boundsOf(block.vertices);
    xSum += box.x + box.w / 2;
    ySum += box.y + box.h / 2;
    hSum += box.h;
    count++;
  }
  const mean = (sum: number) => (count > 0 ? sum / count : Number.POSITIVE_INFINITY);
  return { name, values, originals: hasOriginal ? originals : null, averageY: mean(ySum), averageX: mean(xSum), averageHeight: mean(hSum), count, unit: commonUnit(texts) };
}

/**
 * The series with a person's corrections in place of the readings on those frames (frame index, 0-based, to the
 * typed value; '' leaves the frame without a value): what the table, the chart and every export show.
 */
export function withCorrections(series: SeriesValues, corrections: ReadonlyMap<number, string>): SeriesValues {
  if (corrections.size === 0) return series;
  return { ...series, values: series.values.map((value, frame) => corrections.get(frame) ?? value) };
}

/** Series in screen order: top first, left to right along a line (screen-order.ts; stable for equal places). */
export function orderByPosition<T extends { averageY: number; averageX?: number; averageHeight?: number }>(series: readonly T[]): T[] {
  return inReadingOrder(series, (s) => ({ x: s.averageX ?? 0, y: s.averageY, height: s.averageHeight ?? 0 }));
}

/** Column names for a series: one, or "(translated)" and "(original)" when it has original text. */
export function seriesColumnNames(series: SeriesValues): string[] {
  return series.originals ? [`${series.name} (translated)`, `${series.name} (original)`] : [series.name];
}

export interface ExportFrame {
  /** Seconds from the start of the media, when known. */
  t: number | null;
}

/** The rows of export.csv: a header and one row per frame, cells as the table shows them (unformatted). */
export function numericalRows(frames: readonly ExportFrame[], series: readonly SeriesValues[]): string[][] {
  const ordered = orderByPosition(series);
  const header = ['Frame', 'Time', ...ordered.flatMap(seriesColumnNames)];
  const decimals = clockDecimals(frames.map((f) => f.t));
  const rows = frames.map((frame, i) => [
    String(i + 1),
    formatClock(frame.t, decimals),
    ...ordered.flatMap((s) => (s.originals ? [s.values[i] ?? '', s.originals[i] ?? ''] : [s.values[i] ?? ''])),
  ]);
  return [header, ...rows];
}

/** export.csv: the rows above with the series names quoted and every value through the injection guard. */
export function numericalCsv(frames: readonly ExportFrame[], series: readonly SeriesValues[]): string {
  const [header, ...rows] = numericalRows(frames, series);
  return csvFile([header!.map((name, i) => (i < 2 ? csvCell(name) : quotedCsvCell(name))), ...rows.map((row) => row.map(csvCell))]);
}

/**
 * export.txt, for reading: one paragraph per frame that has a value, headed "Frame 3 at 1:05" ("Frame 3" when its
 * time is unknown, as for photos), then a line "<column>: <value>" per series with a value on that frame, in the
 * CSV's column order (top of the screen first). Values are written as they are, corrections included (pass the
 * series through withCorrections). The byte-order mark first, like every text export here; a blank line between
 * frames.
 */
export function numericalTxt(frames: readonly ExportFrame[], series: readonly SeriesValues[]): string {
  const [header, ...rows] = numericalRows(frames, series);
  const names = header!.slice(2);
  const paragraphs = rows.flatMap((row, i) => {
    const lines = names.flatMap((name, c) => (row[c + 2] ? [`${name}: ${row[c + 2]}`] : []));
    if (lines.length === 0) return [];
    const heading = frames[i]?.t === null || frames[i]?.t === undefined ? `Frame ${row[0]}` : `Frame ${row[0]} at ${row[1]}`;
    return [[heading, ...lines].join('\n')];
  });
  return `${BOM}${paragraphs.join('\n\n')}${paragraphs.length ? '\n' : ''}`;
}

/**
 * The share of frames a block is on, as a percent: whole numbers, except above 99% (and below 100%), where it shows
 * two decimals (cut, not rounded), so 359 of 360 frames reads 99.72% and never looks like all of them.
 */
export function formatFrameShare(count: number, total: number): string {
  if (total <= 0) return '0%';
  const percent = (count / total) * 100;
  if (percent > 99 && percent < 100) return `${(Math.floor(percent * 100) / 100).toFixed(2)}%`;
  return `${Math.round(percent)}%`;
}
