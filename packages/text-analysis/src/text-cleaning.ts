/*
 * The Numerical view's per-series cleaning, applied to a block's text in this order (the spec's):
 * 1. words to remove: whole words, any case; the setting is split on non-word characters ("kW, %" lists "kW");
 * 2. characters to remove: every character of the setting, wherever it occurs;
 * 3. split on a character and keep the Nth piece (1-based; 0 keeps the text whole; past the last piece gives '');
 * 4. numbers only: everything but digits and decimal points goes.
 * The result is trimmed, with runs of spaces as one.
 */

export interface BlockSettings {
  seriesName: string;
  numbersOnly: boolean;
  wordsToRemove: string;
  charactersToRemove: string;
  characterToSplit: string;
  /** 0 (no split) or the 1-based piece to keep. */
  keepSplitItem: number;
}

export function defaultBlockSettings(seriesName: string): BlockSettings {
  return { seriesName, numbersOnly: false, wordsToRemove: '', charactersToRemove: '', characterToSplit: '', keepSplitItem: 0 };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The words a "words to remove" setting lists. */
export function listedWords(setting: string): string[] {
  return setting.split(/[^\p{L}\p{N}_]+/u).filter((w) => w !== '');
}

let lastPattern: { key: string; pattern: RegExp } | null = null;

function wordsPattern(words: readonly string[]): RegExp {
  const key = words.join('\u0000');
  if (lastPattern?.key !== key) {
    // Word edges by hand: \b knows only ASCII letters.
    const alternatives = words.map(escapeRegExp).join('|');
    lastPattern = { key, pattern: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'giu') };
  }
  return lastPattern.pattern;
}

/** The text without the listed words (whole words, any case); the spaces around a removed word become one. */
export function removeWords(text: string, words: readonly string[]): string {
  if (words.length === 0) return text;
  return tidy(text.replace(wordsPattern(words), ' '));
}

export function removeCharacters(text: string, characters: string): string {
  if (characters === '') return text;
  const set = new Set(Array.from(characters));
  return Array.from(text)
    .filter((c) => !set.has(c))
    .join('');
}

/** The `keep`-th piece (1-based) of the text split on `separator`; the whole text when either is unset. */
export function keepSplitPiece(text: string, separator: string, keep: number): string {
  if (separator === '' || !(keep > 0)) return text;
  return text.split(separator)[Math.floor(keep) - 1] ?? '';
}

/** Digits and decimal points only. */
export function numbersOnly(text: string): string {
  return text.replace(/[^0-9.]/g, '');
}

/** A block's text after its series' cleaning settings. */
export function cleanBlockText(text: string, settings: Omit<BlockSettings, 'seriesName'>): string {
  let out = removeWords(text, listedWords(settings.wordsToRemove));
  out = removeCharacters(out, settings.charactersToRemove);
  out = keepSplitPiece(out, settings.characterToSplit, settings.keepSplitItem);
  if (settings.numbersOnly) out = numbersOnly(out);
  return tidy(out);
}
