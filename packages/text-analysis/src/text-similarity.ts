/*
 * How alike two short texts are, for following a block from frame to frame. Two measures, and a block is as
 * similar as the better of them says:
 * - plain: 1 - edit distance / length of the longer text, on lower-cased text with runs of spaces as one;
 * - shape: the same on the texts with every number written as '#', so a reading whose digits change every frame
 *   ("Battery 20%" then "Battery 21%", "99 kW" then "100 kW") keeps its identity.
 */

const NUMBER = /\d+(?:[.,:]\d+)*/g;

/** A text ready to compare: its plain form and its shape (numbers as '#'). */
export interface ComparableText {
  plain: string;
  shape: string;
}

/** Lower case, white space runs as one space, no space at either end. */
export function normaliseForMatching(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The normalised text with every number (digits and the separators between them) replaced by '#'. */
export function digitShape(text: string): string {
  return normaliseForMatching(text).replace(NUMBER, '#');
}

export function comparableText(text: string): ComparableText {
  const plain = normaliseForMatching(text);
  return { plain, shape: plain.replace(NUMBER, '#') };
}

// One row buffer reused by every call: tracking compares many short texts, and allocation would dominate.
let row = new Int32Array(64);

/**
 * Levenshtein distance between `a` and `b` (insertions, deletions and substitutions cost 1). With `limit`, stops
 * as soon as the distance must exceed it and returns limit + 1.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (n - m > limit) return limit + 1;
  if (m === 0) return n;
  if (row.length < m + 1) row = new Int32Array(Math.max(m + 1, row.length * 2));
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= n; i++) {
    const ca = a.charCodeAt(i - 1);
    let diagonal = row[0]!;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= m; j++) {
      const above = row[j]!;
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(above + 1, row[j - 1]! + 1, diagonal + cost);
      row[j] = value;
      diagonal = above;
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
  }
  return row[m]!;
}

/** 1 - edit distance / the longer length (1 for two empty texts). Compares the texts as given. */
export function textSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/** The better of the plain and the digit-insensitive similarity of two texts, 0..1. */
export function blockSimilarity(a: string, b: string): number {
  const x = comparableText(a);
  const y = comparableText(b);
  return Math.max(textSimilarity(x.plain, y.plain), textSimilarity(x.shape, y.shape));
}

function within(a: string, b: string, threshold: number): boolean {
  if (a === b) return true;
  const longer = Math.max(a.length, b.length);
  // similarity >= threshold  <=>  distance <= (1 - threshold) x longer; the epsilon absorbs float noise.
  const allowed = Math.floor((1 - threshold) * longer + 1e-9);
  if (Math.abs(a.length - b.length) > allowed) return false;
  return editDistance(a, b, allowed) <= allowed;
}

/**
 * True when two prepared texts are at least `threshold` (0..1) similar by either measure. Faster than
 * blockSimilarity: it stops comparing as soon as the answer is known.
 */
export function similarEnough(a: ComparableText, b: ComparableText, threshold: number): boolean {
  return within(a.shape, b.shape, threshold) || within(a.plain, b.plain, threshold);
}

/** True when two prepared texts are at least `threshold` (0..1) similar as written (digits count). */
export function similarAsWritten(a: ComparableText, b: ComparableText, threshold: number): boolean {
  return within(a.plain, b.plain, threshold);
}

/**
 * Character error rate of a reading against the truth: the edits (insertions, deletions, substitutions) that turn
 * one into the other over the truth's length; 0 is perfect. Runs of white space count as one space.
 */
export function characterErrorRate(read: string, truth: string): number {
  const a = read.replace(/\s+/g, ' ').trim();
  const b = truth.replace(/\s+/g, ' ').trim();
  if (b.length === 0) return a.length === 0 ? 0 : 1;
  return editDistance(a, b) / b.length;
}
