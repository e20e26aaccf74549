import { BOM, toCsv } from './csv.js';
import { clockDecimals, formatClock } from './time.js';

/*
 * The Region view's exports: multi_box_captions.csv and multi_box_captions.txt. Both start with the UTF-8
 * byte-order mark so spreadsheet programs and editors read accents and symbols correctly.
 */

export const REGION_CSV_FILE = 'multi_box_captions.csv';
export const REGION_TXT_FILE = 'multi_box_captions.txt';
/** How a box's lines are joined in one CSV cell or TXT line. */
export const REGION_LINE_JOINER = ' | ';

export interface RegionExportFrame {
  /** 1-based frame number as the user sees it. */
  number: number;
  /** Seconds; null when unknown (shown as 0:00). */
  t: number | null;
  /** The lines of each box, in the same order as the box names. */
  boxes: readonly (readonly string[])[];
}

/** Columns Frame, Time (m:ss) and one per box; each cell is the box's lines joined by " | ". */
export function regionCsv(boxNames: readonly string[], frames: readonly RegionExportFrame[]): string {
  const decimals = clockDecimals(frames.map((f) => f.t));
  const rows = frames.map((f) => [f.number, formatClock(f.t, decimals), ...boxNames.map((_, i) => (f.boxes[i] ?? []).join(REGION_LINE_JOINER))]);
  return toCsv([['Frame', 'Time', ...boxNames], ...rows]);
}

/**
 * For reading: each frame that has text in any box, headed "Frame N (m:ss)", then one "Box: lines" line per box
 * with text; a blank line between frames.
 */
export function regionTxt(boxNames: readonly string[], frames: readonly RegionExportFrame[]): string {
  const decimals = clockDecimals(frames.map((f) => f.t));
  const sections = frames.flatMap((f) => {
    const lines = boxNames.flatMap((name, i) => {
      const boxLines = f.boxes[i] ?? [];
      return boxLines.length ? [`${name}: ${boxLines.join(REGION_LINE_JOINER)}`] : [];
    });
    return lines.length ? [`Frame ${f.number} (${formatClock(f.t, decimals)})\n${lines.join('\n')}`] : [];
  });
  return `${BOM}${sections.join('\n\n')}${sections.length ? '\n' : ''}`;
}
