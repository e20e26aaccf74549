import type { Box } from './geometry.js';

/** One word row (level 5) of Tesseract's TSV. */
export interface TsvWord {
  text: string;
  box: Box;
  /** 0-100 as Tesseract reports it. */
  confidence: number;
  /** The box of the block Tesseract's layout analysis put the word in (a column, a paragraph, a caption). */
  block?: Box;
}

/** One text line (level 4) with its words, in reading order. */
export interface TsvLine {
  box: Box;
  words: TsvWord[];
}

const LEVEL_BLOCK = 2;
const LEVEL_LINE = 4;
const LEVEL_WORD = 5;
const COLUMNS = ['level', 'page_num', 'block_num', 'par_num', 'line_num', 'word_num', 'left', 'top', 'width', 'height', 'conf', 'text'] as const;

/**
 * Parses `tesseract ... tsv` output into lines and their words. Rows it cannot read (a short row, a number
 * that is not one) are skipped rather than failing the frame; words keep Tesseract's own text, blanks included,
 * for the caller to filter.
 */
export function parseTsv(tsv: string): TsvLine[] {
  const lines = new Map<string, TsvLine>();
  const blocks = new Map<string, Box>();
  const rows = tsv.split(/\r?\n/);
  const header = rows[0]?.split('\t');
  if (!header || header[0] !== COLUMNS[0]) return [];
  for (const row of rows.slice(1)) {
    if (!row) continue;
    const cells = row.split('\t');
    if (cells.length < COLUMNS.length - 1) continue;
    const n = cells.slice(0, 11).map(Number);
    if (n.some((v) => !Number.isFinite(v))) continue;
    const [level, page, block, par, line, , left, top, width, height, conf] = n as [number, number, number, number, number, number, number, number, number, number, number];
    const key = `${page}.${block}.${par}.${line}`;
    const box = { left, top, width, height };
    if (level === LEVEL_BLOCK) blocks.set(`${page}.${block}`, box);
    else if (level === LEVEL_LINE) {
      if (!lines.has(key)) lines.set(key, { box, words: [] });
    } else if (level === LEVEL_WORD) {
      let owner = lines.get(key);
      if (!owner) {
        owner = { box, words: [] };
        lines.set(key, owner);
      }
      // The text is the last column; a tab inside it cannot happen, but join defensively.
      owner.words.push({ text: cells.slice(11).join('\t'), box, confidence: Math.max(0, Math.min(100, conf)), block: blocks.get(`${page}.${block}`) });
    }
  }
  return [...lines.values()];
}

/**
 * Splits the TSV of a multi-page run (a list of images) into one TSV per page, in page order; a page Tesseract
 * wrote nothing for gets the header alone.
 */
export function splitPages(tsv: string, pages: number): string[] {
  const rows = tsv.split(/\r?\n/);
  const header = rows[0] ?? COLUMNS.join('\t');
  const out: string[][] = Array.from({ length: pages }, () => [header]);
  for (const row of rows.slice(1)) {
    const page = Number(row.slice(row.indexOf('\t') + 1, row.indexOf('\t', row.indexOf('\t') + 1)));
    if (Number.isInteger(page) && page >= 1 && page <= pages) out[page - 1]!.push(row);
  }
  return out.map((r) => r.join('\n'));
}
