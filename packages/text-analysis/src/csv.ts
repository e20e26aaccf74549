/*
 * CSV as every export writes it (RFC 4180 quoting, CRLF line ends, the UTF-8 byte-order mark first) with the spec's
 * injection guard: a spreadsheet must never run a cell as a formula.
 */

/** UTF-8 byte-order mark; spreadsheet programs need it to read the file as UTF-8. */
export const BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * One cell: values starting with =, +, - or @ get a single quote in front (so "=SUM(A1)" shows as text and
 * "-5" as '-5); values with quotes, commas, line breaks or leading or trailing spaces are quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell that is always quoted (the numerical export quotes its block names). */
export function quotedCsvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Rows of already formatted cells (see csvCell) joined into a file: the byte-order mark first (so a spreadsheet
 * reads accents and symbols right), a line break at the end.
 */
export function csvFile(rows: readonly (readonly string[])[]): string {
  return `${BOM}${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
}

/** Rows of raw values: every cell goes through csvCell. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return csvFile(rows.map((row) => row.map(csvCell)));
}
