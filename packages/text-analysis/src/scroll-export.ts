import { toCsv } from './csv.js';
import type { ListItem } from './scroll-duplicates.js';
import { exportFileName } from './results-frames.js';
import { clockDecimals, formatClock } from './time.js';

/*
 * The Scroll view's exports: the unique list or every item found, as CSV (with a byte-order mark, so spreadsheet
 * programs read it as UTF-8) and as plain text.
 */

/** `<upload name>-list-unique.csv` (Ignore duplicates on) or `<upload name>-list-all.csv` (off); `.txt` alike. */
export const scrollFileName = (uploadName: string, ignoreDuplicates: boolean, ext: 'csv' | 'txt') => exportFileName(uploadName, ignoreDuplicates ? 'list-unique' : 'list-all', ext);

/** An item's lines on one line, as the table's Content column and the CSV show them. */
export const itemContent = (item: Pick<ListItem, 'texts'>) => item.texts.join(' | ');

/** The score as a whole percent, e.g. "92%". */
export const matchPercent = (similarity: number) => `${Math.round(similarity * 100)}%`;

export interface ListItemsCsvOptions {
  /** Seconds of each frame by frame index (null when unknown: photos); fills the Time column as m:ss. */
  times?: readonly (number | null)[];
  /** Adds the "Unique item" column (the export of every item, duplicates included). */
  withUniqueColumn?: boolean;
}

/**
 * Columns: #, Frame, Time, Content (lines joined by " | "), Match, [Unique item,] then Line 1..N, one per line
 * of the longest item, so a title and a price land in columns of their own.
 */
export function listItemsCsv(items: readonly ListItem[], options: ListItemsCsvOptions = {}): string {
  const lineColumns = items.reduce((n, item) => Math.max(n, item.texts.length), 0);
  const header = ['#', 'Frame', 'Time', 'Content', 'Match', ...(options.withUniqueColumn ? ['Unique item'] : []), ...Array.from({ length: lineColumns }, (_, i) => `Line ${i + 1}`)];
  const decimals = clockDecimals(options.times ?? []);
  const rows = items.map((item, i) => {
    const t = options.times?.[item.frameIndex];
    const lines = Array.from({ length: lineColumns }, (_, j) => item.texts[j] ?? '');
    return [i + 1, item.frame, t === null || t === undefined ? '' : formatClock(t, decimals), itemContent(item), matchPercent(item.similarity), ...(options.withUniqueColumn ? [item.uniqueId] : []), ...lines];
  });
  return toCsv([header, ...rows]);
}

/** Plain text: each item's lines, items separated by a blank line. */
export function listItemsText(items: readonly ListItem[]): string {
  return items.length === 0 ? '' : `${items.map((item) => item.texts.join('\n')).join('\n\n')}\n`;
}
