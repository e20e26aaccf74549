/*
 * The number in a cleaned reading, for charts, whatever the screen's locale: "1,234.5", "1.234,5", "48,215,903",
 * "42,5 kW" and "-3.2" all read as the numbers a person would read. The first number in the text counts.
 *
 * Separators: with both ',' and '.', the one that comes last is the decimal mark. With one kind only, it is a
 * thousands separator when it appears more than once or is followed by exactly three digits after a group of one
 * to three ("1,234", "48,215,903"); otherwise it is the decimal mark ("42,5", "3.14"). A lone "1.234" therefore
 * reads as 1.234 (the dot is the decimal mark unless the groups prove otherwise), while "1,234" reads as 1234.
 */

const NUMBER = /-?\d+(?:[.,]\d+)*/;

const isGroupOfThree = (p: string) => p.length === 3;

/** The first number in `text`, or null when there is none. */
export function parseLocaleNumber(text: string): number | null {
  const match = NUMBER.exec(text.replace(/[\u2212\u2013]/g, '-'));
  if (!match) return null;
  const negative = match[0].startsWith('-');
  const token = negative ? match[0].slice(1) : match[0];
  const lastComma = token.lastIndexOf(',');
  const lastDot = token.lastIndexOf('.');

  let normalised: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimalAt = Math.max(lastComma, lastDot);
    normalised = `${token.slice(0, decimalAt).replace(/[.,]/g, '')}.${token.slice(decimalAt + 1)}`;
  } else if (lastComma >= 0 || lastDot >= 0) {
    const parts = token.split(lastComma >= 0 ? ',' : '.');
    const grouped = parts[0]!.length <= 3 && parts.slice(1).every(isGroupOfThree);
    const thousands = grouped && (parts.length > 2 || lastComma >= 0);
    normalised = thousands ? parts.join('') : `${parts[0]}.${parts[1]}`;
  } else {
    normalised = token;
  }
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}
