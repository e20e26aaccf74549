import type { Rect } from './geometry.js';

/*
 * The second reading both Tesseract engines make of a frame (the Basic one on the server, the Local one in the
 * browser): white text over a picture becomes black print on a blank page in a "white mask", which Tesseract reads
 * far better than the picture itself. When to make that second pass, and how to merge the two passes' runs of words.
 */

/** Near-white: every channel at or above this (0..255). */
export const WHITE_THRESHOLD = 200;
/**
 * In `auto`, the mask pass runs when near-white pixels cover a small share of the frame: enough for text, too little
 * to be a white page (dark text on a light slide is the bare pass's job, and its mask would be a black page).
 */
export const MASK_MIN_WHITE_SHARE = 0.0002;
export const MASK_MAX_WHITE_SHARE = 0.5;

export type WhiteMaskMode = 'auto' | 'always' | 'never';

export function wantsMaskPass(mode: WhiteMaskMode, whiteShare: number, mediaContent?: string): boolean {
  if (mode === 'never') return false;
  if (mode === 'always') return true;
  if (whiteShare < MASK_MIN_WHITE_SHARE) return false;
  return mediaContent === 'captions' || whiteShare <= MASK_MAX_WHITE_SHARE;
}

/** One run of words a pass read, with its mean confidence. */
export interface RunCandidate<W> {
  words: W[];
  confidence: number;
}

const area = (r: Rect) => Math.max(0, r.w) * Math.max(0, r.h);

function intersection(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Intersection over union of two rectangles (0..1). */
export function iou(a: Rect, b: Rect): number {
  const inter = intersection(a, b);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}

/** Share of the smaller rectangle the other covers: 1 when one holds the other. */
export function containment(a: Rect, b: Rect): number {
  const smaller = Math.min(area(a), area(b));
  return smaller > 0 ? intersection(a, b) / smaller : 0;
}

/** The same word read by both passes: boxes that mostly coincide, or one inside the other. */
export const sameSpot = (a: Rect, b: Rect) => iou(a, b) >= 0.4 || containment(a, b) >= 0.7;

/** The smallest rectangle holding all of `rects`. */
export function unionRect(rects: readonly Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return { x, y, w: Math.max(...rects.map((r) => r.x + r.w)) - x, h: Math.max(...rects.map((r) => r.y + r.h)) - y };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/**
 * Merges the passes' runs. Runs are taken by confidence, best first; a word another kept run already holds at the
 * same spot is dropped, and a run left without words is dropped. So a caption read by both passes appears once, with
 * the better reading, and nothing only one pass saw is lost. The result is in reading order: top to bottom, then
 * left to right.
 */
export function mergeRuns<W extends { confidence: number }>(candidates: readonly RunCandidate<W>[], rectOf: (word: W) => Rect): RunCandidate<W>[] {
  const kept: RunCandidate<W>[] = [];
  const keptRects: Rect[] = [];
  for (const c of [...candidates].sort((a, b) => b.confidence - a.confidence)) {
    const fresh = c.words.filter((w) => !keptRects.some((k) => sameSpot(k, rectOf(w))));
    if (fresh.length === 0) continue;
    kept.push(fresh.length === c.words.length ? c : { words: fresh, confidence: mean(fresh.map((w) => w.confidence)) });
    keptRects.push(...fresh.map(rectOf));
  }
  return sortByReadingOrder(kept, (c) => unionRect(c.words.map(rectOf)));
}

/**
 * Top to bottom; items on one row left to right. Two items share a row when their heights overlap by at least half
 * the smaller one's (a table's header cells, one of which Tesseract boxed with the rule under it).
 */
export function sortByReadingOrder<T>(items: readonly T[], rectOf: (item: T) => Rect): T[] {
  return [...items].sort((a, b) => {
    const ra = rectOf(a);
    const rb = rectOf(b);
    const overlap = Math.min(ra.y + ra.h, rb.y + rb.h) - Math.max(ra.y, rb.y);
    return overlap < Math.min(ra.h, rb.h) / 2 ? ra.y - rb.y : ra.x - rb.x;
  });
}

/** A run of words as a candidate: the words and their mean confidence. */
export const runCandidate = <W extends { confidence: number }>(words: W[]): RunCandidate<W> => ({ words, confidence: mean(words.map((w) => w.confidence)) });
