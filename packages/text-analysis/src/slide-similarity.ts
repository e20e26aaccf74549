/*
 * The Presentation view's similarity filter: a frame is "similar to previous" when the words it shows overlap the
 * words of the frame just before it in the list by at least the threshold (Jaccard overlap of lowercased
 * alphanumeric word sets, as a rounded percent). The first frame is never similar: it has nothing before it.
 *
 * "Previous" always means the frame before in the list, whether or not that frame is kept: a slide shown for ten
 * frames has nine repeats, each compared with its neighbour, so the whole run after the first drops out.
 */

export const SLIDE_SIMILARITY_MIN = 80;
export const SLIDE_SIMILARITY_MAX = 100;
export const SLIDE_SIMILARITY_DEFAULT = 95;

const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct words of a text, lowercased; a word is a run of letters and digits (any script). */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

/**
 * How much two word sets overlap, as a whole percent: shared words over all words, rounded. Two frames without
 * any words are the same picture of nothing, so they overlap 100%; one empty and one not overlap 0%.
 */
export function overlapPercent(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 100;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  const union = a.size + b.size - shared;
  return Math.round((shared / union) * 100);
}

/**
 * For each frame's text, its overlap percent with the frame before it in the list (null for the first). This is
 * the costly part; compute it once per upload and compare it with each threshold the slider takes.
 */
export function overlapWithPrevious(texts: readonly string[]): (number | null)[] {
  let previous: Set<string> | null = null;
  return texts.map((text) => {
    const words = wordSet(text);
    const overlap = previous === null ? null : overlapPercent(previous, words);
    previous = words;
    return overlap;
  });
}

/** Which frames are similar to the previous one at `threshold` percent (the first frame never is). */
export function similarToPrevious(overlaps: readonly (number | null)[], threshold: number): boolean[] {
  return overlaps.map((overlap) => overlap !== null && overlap >= threshold);
}
