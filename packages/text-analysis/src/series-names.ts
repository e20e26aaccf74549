/*
 * Names of the Numerical view's series. A block picked on a frame is named after the first words of its text:
 * at most three words, each cut to 15 characters, dropping words from the end while the name is over 25
 * characters, then " Block" ("Battery 20%" becomes "Battery 20% Block"). A series whose name is empty shows its
 * block id instead.
 */

export const SERIES_NAME_MAX_WORDS = 3;
export const SERIES_NAME_MAX_WORD_LENGTH = 15;
export const SERIES_NAME_MAX_LENGTH = 25;
export const SERIES_NAME_SUFFIX = ' Block';

/** The default name of a series started from a block with this text ('' for a text without words). */
export function defaultSeriesName(text: string): string {
  const words = text
    .split(/\s+/)
    .filter((w) => w !== '')
    .slice(0, SERIES_NAME_MAX_WORDS)
    .map((w) => w.slice(0, SERIES_NAME_MAX_WORD_LENGTH));
  while (words.length > 1 && words.join(' ').length > SERIES_NAME_MAX_LENGTH) words.pop();
  return words.length === 0 ? '' : `${words.join(' ')}${SERIES_NAME_SUFFIX}`;
}

/** What a series is called: its name, or its block id when the name is empty. */
export function seriesLabel(name: string, id: string): string {
  return name.trim() === '' ? id : name.trim();
}
