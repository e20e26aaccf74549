/*
 * Bullets in the Presentation text. Tesseract reads a bullet glyph as whatever it looks like: `•` comes out as
 * `e`, `¢`, `°` or `«`, `▪` as `a`, `m` or `=`, `–` as `-`. A slide's list then reads "e Revenue grew" and
 * "¢ Costs stayed flat". Judged by position only, never by the word itself: the first token of a line, one
 * character long (or two letters without a vowel, which no English word is: `▪` read as `mw` or `gw`), followed by
 * a space and text. Such a token is written `•`.
 *
 * - A symbol (anything but a letter or digit: `¢`, `*`, `°`, `-`, `■`...) standing alone before text is a bullet.
 * - A single lower-case letter (`e`, `a`, `m`) is a word as often as a misread bullet, so it counts only when the
 *   text after it starts with a capital ("e Revenue grew": no sentence goes on that way), or when at least two lines
 *   of the frame start with such a token (a list: "a small releases", "a write tests").
 *
 * Anything joined to its word is text and stays: `*Note`, `e-mail`, `-5 °C`, `°C`.
 */

export const BULLET = '\u2022';

/** The first token, one or two characters, a space, then text that starts with a letter, digit or opening mark. */
const LEADING = /^(\S{1,2})\s+(?=[\p{L}\p{N}"'“‘(])/u;
const SYMBOL = /^[^\p{L}\p{N}\s]$/u;
/** One lower-case letter, or two lower-case Latin letters without a vowel. */
const LOWER_LETTER = /^(?:\p{Ll}|[b-df-hj-np-tv-xz]{2})$/u;
const STARTS_UPPER = /^\p{Lu}/u;

type Lead = 'symbol' | 'letter' | null;

function leadOf(line: string): { kind: Lead; rest: string } {
  const trimmed = line.trimStart();
  const match = LEADING.exec(trimmed);
  if (!match) return { kind: null, rest: trimmed };
  const token = match[1]!;
  const rest = trimmed.slice(match[0].length);
  if (SYMBOL.test(token)) return { kind: 'symbol', rest };
  if (LOWER_LETTER.test(token)) return { kind: 'letter', rest };
  return { kind: null, rest: trimmed };
}

/**
 * A frame's lines with each leading bullet-like token written as `•` (see above). Lines are otherwise unchanged;
 * the judgement needs the whole frame, since a list of letter-led lines is a list of bullets.
 */
export function normaliseBullets(lines: readonly string[]): string[] {
  const leads = lines.map(leadOf);
  const listLike = leads.filter((l) => l.kind !== null).length >= 2;
  return lines.map((line, i) => {
    const { kind, rest } = leads[i]!;
    const bullet = kind === 'symbol' || (kind === 'letter' && (listLike || STARTS_UPPER.test(rest)));
    return bullet ? `${BULLET} ${rest}` : line;
  });
}
