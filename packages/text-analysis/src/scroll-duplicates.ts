import type { ListItemMatch } from './scroll-matching.js';

/*
 * The same list item is seen on several frames while the list scrolls. A later item whose text is at least the
 * duplicate threshold alike to an item already found is a duplicate and takes that item's number, so the first
 * sightings form the unique list, numbered in list order.
 */

/** A detected list item (the spec's fields). */
export interface ListItem extends ListItemMatch {
  /** 1-based frame number, as the table shows it. */
  frame: number;
  /** The item's text normalised for comparing: lower case, letters and digits, single spaces. */
  key: string;
  /** Number of the unique item this is (1-based, in list order); duplicates share it. */
  uniqueId: number;
  /** True when an earlier item already had this text. */
  duplicate: boolean;
}

/** Lower case, accents removed, everything but letters and digits turned into single spaces. */
export function itemKey(texts: readonly string[]): string {
  return texts
    .join(' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The key's character pairs as sorted numbers (a multiset), for a quick Dice coefficient. */
function bigrams(key: string): Int32Array {
  const compact = key.replace(/ /g, '');
  const out = new Int32Array(Math.max(0, compact.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = (compact.charCodeAt(i) << 16) | compact.charCodeAt(i + 1);
  return out.sort();
}

function dice(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (2 * shared) / (a.length + b.length);
}

/**
 * How alike two keys are, 0..1: the Dice coefficient of their character pairs (spaces ignored), which forgives
 * the odd misread letter ("kettle" and "kettie") but not a different name or price. Equal keys are 1; keys too short
 * to have pairs are 0 unless equal.
 */
export function keySimilarity(a: string, b: string): number {
  if (a === b) return a === '' ? 0 : 1;
  return dice(bigrams(a), bigrams(b));
}

export interface DeduplicatedItems {
  /** Every item found, in frame order and top to bottom, each with its unique number. */
  all: ListItem[];
  /** The first sighting of each unique item. */
  unique: ListItem[];
}

/** Unique items seen this many frames back or fewer are compared first (a scrolling list repeats them there). */
export const RECENT_FRAMES = 3;

interface Unique {
  item: ListItem;
  pairs: Int32Array;
  lastFrame: number;
}

/**
 * Numbers the items and marks duplicates. Items are taken in frame order, top to bottom; an item is a duplicate of
 * the most similar unique item at or above `thresholdPercent`, except that two items on the same frame are never
 * the same item (a list can show the same text twice at once). Items without text are never merged. Unique items
 * seen in the last few frames are tried first and the rest only when none of them is alike, so a long upload
 * costs about as much as a short one.
 */
export function deduplicateItems(matches: readonly ListItemMatch[], thresholdPercent: number): DeduplicatedItems {
  const threshold = thresholdPercent / 100 - 1e-9;
  const ordered = [...matches].sort((a, b) => a.frameIndex - b.frameIndex || a.bounds.y - b.bounds.y);
  const uniques: Unique[] = [];
  let recent: Unique[] = [];
  let frame = -1;
  const all: ListItem[] = [];

  const bestOf = (candidates: readonly Unique[], key: string, pairs: Int32Array, frameIndex: number) => {
    let best: Unique | null = null;
    let bestSimilarity = 0;
    for (const u of candidates) {
      if (u.lastFrame === frameIndex || u.item.key === '') continue;
      let similarity = 1;
      if (u.item.key !== key) {
        // Dice can reach the threshold only when the pair counts are close enough.
        const bound = (2 * Math.min(pairs.length, u.pairs.length)) / Math.max(1, pairs.length + u.pairs.length);
        if (bound < threshold) continue;
        similarity = dice(pairs, u.pairs);
      }
      if (similarity >= threshold && similarity > bestSimilarity) {
        best = u;
        bestSimilarity = similarity;
      }
    }
    return best;
  };

  for (const match of ordered) {
    if (match.frameIndex !== frame) {
      frame = match.frameIndex;
      recent = recent.filter((u) => u.lastFrame >= frame - RECENT_FRAMES);
    }
    const key = itemKey(match.texts);
    const pairs = bigrams(key);
    let best: Unique | null = null;
    if (key !== '') {
      best = bestOf(recent, key, pairs, frame);
      if (!best) {
        best = bestOf(uniques, key, pairs, frame);
        if (best && !recent.includes(best)) recent.push(best);
      }
    }
    const base = { ...match, texts: [...match.texts], bounds: { ...match.bounds }, frame: match.frameIndex + 1, key };
    if (best) {
      best.lastFrame = frame;
      all.push({ ...base, uniqueId: best.item.uniqueId, duplicate: true });
    } else {
      const unique: Unique = { item: { ...base, uniqueId: uniques.length + 1, duplicate: false }, pairs, lastFrame: frame };
      uniques.push(unique);
      recent.push(unique);
      all.push(unique.item);
    }
  }
  return inListOrder(all, uniques.length);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Puts the unique items in the order they stand in the list, which is not always the order they were first seen: an
 * item OCR missed on its first frame is first seen a frame later than the item below it. Each frame's scroll
 * offset is measured from the items it shares with earlier frames (the median of their moves, so one wrong match
 * does not count); a frame that shares none is placed after everything seen before it. Items are then ordered by
 * where their first sighting stands in the whole list, and numbered 1, 2, 3... in that order.
 */
function inListOrder(all: ListItem[], uniqueCount: number): DeduplicatedItems {
  const offsets = new Map<number, number>();
  const lastSeen = new Map<number, ListItem>();
  const firstPosition = new Map<number, number>();
  let end = -Infinity;
  for (let start = 0; start < all.length; ) {
    const frame = all[start]!.frameIndex;
    let stop = start;
    while (stop < all.length && all[stop]!.frameIndex === frame) stop++;
    const items = all.slice(start, stop);
    const moves = items.flatMap((item) => {
      const before = lastSeen.get(item.uniqueId);
      return before ? [offsets.get(before.frameIndex)! + before.bounds.y - item.bounds.y] : [];
    });
    const top = Math.min(...items.map((i) => i.bounds.y));
    const offset = moves.length > 0 ? median(moves) : end === -Infinity ? 0 : end - top + 1;
    offsets.set(frame, offset);
    for (const item of items) {
      const position = item.bounds.y + offset;
      if (!firstPosition.has(item.uniqueId)) firstPosition.set(item.uniqueId, position);
      end = Math.max(end, position);
      lastSeen.set(item.uniqueId, item);
    }
    start = stop;
  }
  const order = Array.from({ length: uniqueCount }, (_, i) => i + 1).sort((a, b) => firstPosition.get(a)! - firstPosition.get(b)! || a - b);
  const renumber = new Map(order.map((id, i) => [id, i + 1]));
  const renumbered = all.map((item) => ({ ...item, uniqueId: renumber.get(item.uniqueId)! }));
  const unique = renumbered.filter((item) => !item.duplicate).sort((a, b) => a.uniqueId - b.uniqueId);
  return { all: renumbered, unique };
}
