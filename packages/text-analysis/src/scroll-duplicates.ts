import type { ListItemMatch } from './scroll-matching.js';

/*
 * The same list item is read on several frames while the list scrolls. Its sightings become one row of the list,
 * shown with its clearest reading, and the person can still edit, remove and merge rows (ScrollEdits below).
 */

/** A sighting of a list item on one frame (the spec's fields). */
export interface ListItem extends ListItemMatch {
  /** 1-based frame number, as the table shows it. */
  frame: number;
  /** The item's text normalised for comparing: lower case, letters and digits, single spaces. */
  key: string;
  /** Number of the item this is a sighting of (1-based, in list order); sightings of one item share it. */
  uniqueId: number;
  /** True when an earlier frame already showed this item. */
  duplicate: boolean;
}

/** One row of the list: an item, with the reading kept for it. */
export interface ListRow extends ListItem {
  /** How many frames the item was read on. */
  seenOn: number;
  /** The item's first sighting ("frame index:top"); the person's edits name the row by it. */
  ref: string;
}

export interface DeduplicatedItems {
  /** Every sighting, in frame order and top to bottom, each with its item's number. */
  all: ListItem[];
  /** One row per item, in list order. */
  unique: ListRow[];
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

/** Items seen this many frames back or fewer are looked at first (a scrolling list repeats them there). */
export const RECENT_FRAMES = 3;
/** A sighting stands at an earlier item's place when within this share of the item's height of it. */
export const SAME_PLACE_SHARE = 0.25;
/** At the same place, texts this alike are the same item: OCR noise and blur are forgiven. */
export const SAME_PLACE_LIKENESS = 0.5;

/** The name of a sighting in the person's edits: its frame index and its top, to the pixel. */
export const sightingRef = (item: Pick<ListItemMatch, 'frameIndex' | 'bounds'>) => `${item.frameIndex}:${Math.round(item.bounds.y)}`;

interface Sighting {
  item: ListItem;
  key: string;
  pairs: Int32Array;
}

/** An item found so far: its latest reading, where it stands in the whole list, and when it was last seen. */
interface Known {
  id: number;
  key: string;
  pairs: Int32Array;
  place: number;
  lastFrame: number;
}

/** How alike two texts are, or 0 as soon as Dice cannot reach `bar` (the pair counts are too far apart). */
function likeness(a: { key: string; pairs: Int32Array }, b: { key: string; pairs: Int32Array }, bar: number): number {
  if (a.key === '' || b.key === '') return 0;
  if (a.key === b.key) return 1;
  const bound = (2 * Math.min(a.pairs.length, b.pairs.length)) / Math.max(1, a.pairs.length + b.pairs.length);
  return bound < bar ? 0 : dice(a.pairs, b.pairs);
}

interface Vote {
  item: number;
  move: number;
  weight: number;
}

/**
 * The sightings' votes for the frame's move: each sighting votes for the earlier item most alike to it (each of
 * them on a tie), when at least `bar` alike. Voting for the most alike only keeps look-alike neighbours ("Item 12"
 * next to "Item 13") from outvoting the exact repeats.
 */
function votesFor(sightings: readonly Sighting[], candidates: readonly Known[], bar: number): Vote[] {
  const votes: Vote[] = [];
  sightings.forEach((s, item) => {
    const alike = candidates.map((k) => ({ k, weight: likeness(s, k, bar) })).filter((c) => c.weight >= bar);
    const most = Math.max(...alike.map((c) => c.weight));
    for (const c of alike) if (c.weight >= most - 1e-9) votes.push({ item, move: c.k.place - s.item.bounds.y, weight: c.weight });
  });
  return votes;
}

/**
 * The move most sightings agree on (within `tolerance`), each sighting counted once with its best likeness; on a
 * tie the one nearest the previous frame's (a list scrolls steadily). The median of the agreeing moves; null when
 * fewer than `minItems` sightings agree.
 */
function agreedMove(votes: readonly Vote[], tolerance: number, previous: number, minItems: number): number | null {
  let best: { moves: number[]; support: number; distance: number } | null = null;
  for (const candidate of votes) {
    const perItem = new Map<number, Vote>();
    for (const v of votes) {
      if (Math.abs(v.move - candidate.move) > tolerance) continue;
      const other = perItem.get(v.item);
      if (!other || v.weight > other.weight) perItem.set(v.item, v);
    }
    if (perItem.size < minItems) continue;
    const agreeing = [...perItem.values()];
    const support = agreeing.reduce((sum, v) => sum + v.weight, 0);
    const distance = Math.abs(candidate.move - previous);
    if (!best || support > best.support + 1e-9 || (support > best.support - 1e-9 && distance < best.distance)) best = { moves: agreeing.map((v) => v.move), support, distance };
  }
  return best ? median(best.moves) : null;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Sightings become items by their place in the list, since an item seen again stands at the same place between the
 * same neighbours:
 * 1. Each frame is placed in the list by the move most of its sightings agree on, each voting for the earlier item
 *    most alike to it when at least the duplicate threshold alike (recent frames first, then all). When none is,
 *    texts at least half alike count, but two sightings must then agree. A frame with nothing in common continues
 *    the list.
 * 2. A sighting at an earlier item's place (within a quarter of the item's height) is that item when their texts
 *    are at least half alike, so a blurry or misread copy is not a new row; anywhere else it is a new item, however
 *    alike the texts: "Item 12" and "Item 13", or two equal prices, are neighbours and never stand at one place.
 * Two sightings on one frame are never one item, nor are sightings without text. Items are numbered in list order.
 */
export function deduplicateItems(matches: readonly ListItemMatch[], thresholdPercent: number): DeduplicatedItems {
  const threshold = thresholdPercent / 100 - 1e-9;
  const ordered = [...matches].sort((a, b) => a.frameIndex - b.frameIndex || a.bounds.y - b.bounds.y);
  const known: Known[] = [];
  const all: ListItem[] = [];
  const firstPlace: number[] = [];
  let end = -Infinity;
  let previousOffset = 0;

  for (let start = 0; start < ordered.length; ) {
    const frame = ordered[start]!.frameIndex;
    let stop = start;
    while (stop < ordered.length && ordered[stop]!.frameIndex === frame) stop++;
    const sightings: Sighting[] = ordered.slice(start, stop).map((match) => {
      const key = itemKey(match.texts);
      return { item: { ...match, texts: [...match.texts], bounds: { ...match.bounds }, frame: frame + 1, key, uniqueId: 0, duplicate: false }, key, pairs: bigrams(key) };
    });
    start = stop;

    const tolerance = Math.max(1, sightings[0]!.item.bounds.h * SAME_PLACE_SHARE);
    const recent = known.filter((k) => k.lastFrame >= frame - RECENT_FRAMES);
    const strict = votesFor(sightings, recent, threshold);
    const votes = strict.length > 0 ? strict : votesFor(sightings, known, threshold);
    let offset = agreedMove(votes, tolerance, previousOffset, 1);
    if (offset === null) offset = agreedMove(votesFor(sightings, recent, SAME_PLACE_LIKENESS), tolerance, previousOffset, 2);
    const placed = offset !== null;
    // A frame with nothing in common with the frames before it continues the list below everything seen.
    if (offset === null) offset = end === -Infinity ? 0 : end + sightings[0]!.item.bounds.h - sightings[0]!.item.bounds.y;
    previousOffset = offset;

    for (const s of sightings) {
      const place = s.item.bounds.y + offset;
      const same = placed ? itemAtPlace(s, place, known, tolerance, frame) : null;
      if (same) {
        // The latest reading and place stand for the item from now on.
        Object.assign(same, { key: s.key, pairs: s.pairs, place, lastFrame: frame });
        all.push({ ...s.item, uniqueId: same.id, duplicate: true });
      } else {
        const item: Known = { id: known.length + 1, key: s.key, pairs: s.pairs, place, lastFrame: frame };
        known.push(item);
        firstPlace[item.id] = place;
        all.push({ ...s.item, uniqueId: item.id });
      }
      end = Math.max(end, place);
    }
  }
  return inListOrder(all, firstPlace, known.length);
}

/** The earlier item standing at `place` whose text is at least half alike, the nearest; not one this frame has. */
function itemAtPlace(s: Sighting, place: number, known: readonly Known[], tolerance: number, frame: number): Known | null {
  let best: Known | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const distance = Math.abs(k.place - place);
    if (distance > tolerance || distance >= bestDistance || k.lastFrame === frame) continue;
    if (likeness(s, k, SAME_PLACE_LIKENESS) < SAME_PLACE_LIKENESS) continue;
    best = k;
    bestDistance = distance;
  }
  return best;
}

/** Numbers the items 1, 2, 3... by where they first stood in the list, and makes their rows. */
function inListOrder(all: ListItem[], firstPlace: readonly number[], count: number): DeduplicatedItems {
  const ids = Array.from({ length: count }, (_, i) => i + 1).sort((a, b) => firstPlace[a]! - firstPlace[b]! || a - b);
  const renumber = new Map(ids.map((id, i) => [id, i + 1]));
  const renumbered = all.map((item) => ({ ...item, uniqueId: renumber.get(item.uniqueId)! }));
  return { all: renumbered, unique: rowsOf(renumbered) };
}

function groupBy<K, T>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** One row per item number, in order, each named by its first sighting. */
function rowsOf(all: readonly ListItem[]): ListRow[] {
  const groups = groupBy(all, (item) => item.uniqueId);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([id, sightings]) => rowOf(sightings, id, sightingRef(sightings[0]!)));
}

function rowOf(sightings: readonly ListItem[], uniqueId: number, ref: string): ListRow {
  const kept = clearestReading(sightings);
  return { ...kept, uniqueId, duplicate: false, seenOn: new Set(sightings.map((s) => s.frameIndex)).size, ref };
}

/**
 * The reading kept for an item read on several frames: the text most of its sightings agree on (the same key), on
 * a tie the surer one (the OCR's confidence, then the layout match), then the earlier one. So a blurry first
 * reading gives way to the clean ones after it.
 */
export function clearestReading<T extends Pick<ListItem, 'key' | 'similarity' | 'confidence'>>(sightings: readonly T[]): T {
  const votes = new Map<string, number>();
  for (const s of sightings) votes.set(s.key, (votes.get(s.key) ?? 0) + 1);
  const rank = (s: T) => [votes.get(s.key)!, s.confidence ?? -1, s.similarity];
  let best = sightings[0]!;
  for (const s of sightings.slice(1)) {
    const [a, b] = [rank(s), rank(best)];
    const difference = a.map((v, i) => v - b[i]!).find((d) => Math.abs(d) > 1e-9) ?? 0;
    if (difference > 0) best = s;
  }
  return best;
}

/*
 * The person's corrections to the list, kept with the view's work: a row's text edited, a row removed, a row merged
 * into the one above it. Rows are named by their first sighting (ListRow.ref), which Detect Items finds again from
 * the same frames, template and settings; a correction whose row is not found any more is dropped.
 */
export interface ScrollEdits {
  /** Edited rows: their lines as the person wrote them. */
  texts: Record<string, string[]>;
  /** Removed rows. */
  removed: string[];
  /** Merged rows: each to the row it was merged into. */
  merged: Record<string, string>;
}

export const NO_SCROLL_EDITS: ScrollEdits = Object.freeze({ texts: {}, removed: [], merged: {} }) as ScrollEdits;

export const hasScrollEdits = (edits: ScrollEdits) => Object.keys(edits.texts).length > 0 || edits.removed.length > 0 || Object.keys(edits.merged).length > 0;

/** A person's correction to one row of the list. */
export type RowEdit = { kind: 'text'; ref: string; texts: string[] } | { kind: 'remove'; ref: string } | { kind: 'merge'; ref: string; into: string };

/**
 * The corrections with one more. `rows`: the list as shown, corrections made; a merge involving an edited row keeps
 * what the person sees, since edited lines would otherwise hide the merge: the edited text when the two rows are
 * readings of one item, else both rows' lines joined.
 */
export function withRowEdit(edits: ScrollEdits, edit: RowEdit, rows: readonly ListRow[]): ScrollEdits {
  if (edit.kind === 'text') return { ...edits, texts: { ...edits.texts, [edit.ref]: [...edit.texts] } };
  if (edit.kind === 'remove') return { ...edits, removed: [...edits.removed, edit.ref] };
  const { [edit.ref]: _dropped, ...texts } = edits.texts;
  const merged = { ...edits.merged, [edit.ref]: edit.into };
  const above = rows.find((row) => row.ref === edit.into);
  const below = rows.find((row) => row.ref === edit.ref);
  const edited = Object.hasOwn(edits.texts, edit.ref) || Object.hasOwn(edits.texts, edit.into);
  if (!above || !below || !edited) return { ...edits, texts, merged };
  const oneItem = keySimilarity(above.key, below.key) >= SAME_PLACE_LIKENESS;
  texts[edit.into] = oneItem ? (Object.hasOwn(edits.texts, edit.into) ? above.texts : below.texts) : [...above.texts, ...below.texts];
  return { ...edits, texts, merged };
}

/** The row a row ends up in after its merges, following merges into rows merged on; `rows`: the rows there are. */
function mergedInto(ref: string, merged: Readonly<Record<string, string>>, rows: ReadonlySet<string>): string {
  const seen = new Set<string>([ref]);
  for (let next = merged[ref]; next !== undefined && rows.has(next) && !seen.has(next); next = merged[next]) {
    seen.add(next);
    ref = next;
  }
  return ref;
}

/**
 * The list with the person's corrections. Merging a row into the one above: two readings of one item (texts at least
 * half alike) keep the clearer (seen on more frames, then surer); two parts of one item (a title row and its
 * details row) are joined, the row above first. Removed rows go with their sightings; edited rows show the lines
 * as written. Rows and sightings are numbered again 1, 2, 3...
 */
export function applyListEdits(result: DeduplicatedItems, edits: ScrollEdits): DeduplicatedItems {
  if (!hasScrollEdits(edits)) return result;
  const position = new Map(result.unique.map((row, i) => [row.ref, i]));
  const rows = new Set(position.keys());
  const finalRef = (ref: string) => mergedInto(ref, edits.merged, rows);
  const refOfId = new Map(result.unique.map((row) => [row.uniqueId, finalRef(row.ref)]));
  const removed = new Set(edits.removed);
  const groups = groupBy(
    result.unique.filter((row) => !removed.has(refOfId.get(row.uniqueId)!)),
    (row) => refOfId.get(row.uniqueId)!,
  );
  const refs = [...groups.keys()].sort((a, b) => position.get(a)! - position.get(b)!);
  const newId = new Map(refs.map((ref, i) => [ref, i + 1]));

  const all: ListItem[] = [];
  const frames = new Map<number, Set<number>>();
  for (const item of result.all) {
    const id = newId.get(refOfId.get(item.uniqueId)!);
    if (id === undefined) continue;
    const seen = frames.get(id) ?? frames.set(id, new Set()).get(id)!;
    all.push({ ...item, uniqueId: id, duplicate: seen.size > 0 });
    seen.add(item.frameIndex);
  }
  const unique = refs.map((ref, i) => {
    const row = groups.get(ref)!.reduce(mergeRows);
    return withEditedText({ ...row, uniqueId: i + 1, ref, seenOn: frames.get(i + 1)!.size }, edits.texts[ref]);
  });
  return { all, unique };
}

/** A row and the row below it merged into it (see applyListEdits); the caller counts the frames again. */
function mergeRows(above: ListRow, below: ListRow): ListRow {
  if (keySimilarity(above.key, below.key) >= SAME_PLACE_LIKENESS) return { ...clearerRow(above, below), uniqueId: above.uniqueId, ref: above.ref };
  return withEditedText(above, [...above.texts, ...below.texts]);
}

/** The row seen on more frames, then the surer reading (the OCR's confidence, then the layout match), then `a`. */
function clearerRow(a: ListRow, b: ListRow): ListRow {
  const rank = (r: ListRow) => [r.seenOn, r.confidence ?? -1, r.similarity];
  const difference = rank(b).map((v, i) => v - rank(a)[i]!).find((d) => Math.abs(d) > 1e-9) ?? 0;
  return difference > 0 ? b : a;
}

function withEditedText(row: ListRow, texts: readonly string[] | undefined): ListRow {
  if (!texts) return row;
  return { ...row, texts: [...texts], lines: texts.length, key: itemKey(texts) };
}
