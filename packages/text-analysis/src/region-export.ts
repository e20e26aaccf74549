import { BOM, toCsv } from './csv.js';
import type { CaptionCue } from './subtitles.js';
import { exportFileName } from './results-frames.js';
import { clockDecimals, formatClock } from './time.js';

/*
 * The Region view's exports: `<upload name>-captions.csv` (every frame) and `.txt` (every caption). Both start with the UTF-8
 * byte-order mark so spreadsheet programs and editors read accents and symbols correctly.
 */

/** The Region view's frame-by-frame CSV and caption TXT: `<upload name>-captions.csv` / `.txt`. */
export const regionFileName = (uploadName: string, ext: 'csv' | 'txt') => exportFileName(uploadName, 'captions', ext);
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

/** Columns Frame, Time (m:ss, or m:ss.s when frames are under a second apart) and one per box; each cell is the box's lines joined by " | ". */
export function regionCsv(boxNames: readonly string[], frames: readonly RegionExportFrame[]): string {
  const decimals = clockDecimals(frames.map((f) => f.t));
  const rows = frames.map((f) => [f.number, formatClock(f.t, decimals), ...boxNames.map((_, i) => (f.boxes[i] ?? []).join(REGION_LINE_JOINER))]);
  return toCsv([['Frame', 'Time', ...boxNames], ...rows]);
}

/**
 * For reading: the captions of every box as cues (captionCuesInBox), in time order (boxes in their order at one
 * time), each headed "Green 0:03.0 to 0:07.0" and followed by its lines; a blank line between cues.
 */
export function regionTxt(boxNames: readonly string[], cuesByBox: readonly (readonly CaptionCue[])[]): string {
  const all = boxNames.flatMap((name, box) => (cuesByBox[box] ?? []).map((cue) => ({ name, box, cue })));
  all.sort((a, b) => a.cue.start - b.cue.start || a.box - b.box);
  const sections = all.map(({ name, cue }) => `${name} ${formatClock(cue.start, 1)} to ${formatClock(cue.end, 1)}\n${cue.text}`);
  return `${BOM}${sections.join('\n\n')}${sections.length ? '\n' : ''}`;
}
