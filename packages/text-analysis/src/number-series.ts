import type { Track, TrackPoint } from './block-tracking.js';
import { boundsOf, type Rect, type TextBlock } from './geometry.js';
import { parseValue } from './number-parsing.js';
import { inReadingOrder } from './screen-order.js';
import { defaultBlockSettings, listedWords, type BlockSettings } from './text-cleaning.js';

/*
 * "Find the numbers": the Numerical view's one-click pick of every on-screen reading that changes over the video,
 * each named after its label on screen and given the cleaning its kind of value needs.
 *
 * A reading is a block's whole text as a value: an optional label without digits ("Battery", "Power:"), then a
 * number with an optional sign and unit ("45%", "-3.2 °C", "150 kW", "1,234 rpm") or a time ("11:12",
 * "00:01:05"). A track (block-tracking.ts) is a series when at least 60% of its frames read as values of one
 * kind, and they change: the reading settles on a new value at least once (the new value lasts two frames, or is
 * one tick of the display at either end, so a temperature that ticks up every 10 s is a series), or no value is
 * on more than 60% of its frames (as on a screen that updates every second). A static number (a model number, a
 * year in a header, "220V") is not a series, even misread now and then: a misread lasting one or two frames that
 * returns to the value before it is not a change; nor is a short-lived text seen on fewer than 3 frames
 * (or, on shorter uploads, than every frame).
 *
 * Its name is the label inside the block when the block holds one ("Battery 45%"); otherwise the label beside
 * it, by box geometry on the frames it is on: on each frame, the nearest block to its left on the same line and
 * the nearest block directly above, each counting only when it holds a letter, is neither a series' reading nor a
 * unit, and is no farther than 8 of the value's heights to the left or 3 above. The label is the text seen there
 * most consistently: the most common left label when it is seen on a third of the frames or more, else the most
 * common label above on as many, so text that passes over a busy picture, or a label the OCR missed on some
 * frames, neither names a series nor leaves it unnamed. A known unit in a block of its own just to the right
 * ("150" "kW", within 3 heights) is the series' unit. Units are written the usual way whatever case the OCR read
 * ("kw" is kW). The unit goes into the name ("Power (kW)") because the cleaned values keep the number alone.
 * Without a label a series is "Value 1", "Value 2", in screen order (top first, left to right along a line); a
 * name already taken gets " 2", " 3".
 *
 * Cleaning: numbers keep digits and the decimal point (Numbers only), unless a reading has a sign or a decimal
 * comma, which Numbers only would lose; then the label's words and the unit are removed instead. Times keep
 * their text (the chart reads them as durations), less the label. Tracks of one field that tracking split (the
 * field was not read for a while) join into one series when they share the name, sit on the same spot and never
 * share a frame.
 */

export type ReadingKind = 'number' | 'time';

export interface Reading {
  /** The words before the value, without a trailing colon ('' when none). */
  label: string;
  kind: ReadingKind;
  /** Seconds for a time; the number for a number. */
  value: number;
  /** The unit after a number ("%", "kW"), or null. */
  unit: string | null;
  /** The number is written with a sign or a decimal comma, which Numbers only would lose. */
  needsText: boolean;
}

/*
 * Units as they are usually written. OCR often gets a unit's case wrong ("kw" for "kW", "v" for "V"): a unit that is
 * one of these whatever its case is written this way. The list has no two units that differ by case only.
 */
const KNOWN_UNITS = ['%', '‰', '°C', '°F', 'kW', 'kWh', 'MW', 'W', 'V', 'mV', 'kV', 'A', 'mA', 'Hz', 'kHz', 'rpm', 'bar', 'psi', 'kPa', 'km/h', 'mph', 'm/s', 'km', 'kg', 'lb', 'fps', 'dB', 'Nm', 'l/min', 'ppm'];
const CANONICAL_UNIT = new Map(KNOWN_UNITS.map((u) => [u.toLowerCase(), u]));

/** A unit as usually written ("kw" -> "kW", "° C" -> "°C"); an unknown unit as read. */
export function canonicalUnit(unit: string): string {
  const compact = unit.replace(/\s+/g, '');
  return CANONICAL_UNIT.get(compact.toLowerCase()) ?? compact;
}

/** A block holding a known unit alone ("kW" beside "150"), never a label. */
const isUnitBlock = (text: string) => CANONICAL_UNIT.has(text.replace(/\s+/g, '').toLowerCase());
const HAS_LETTER = /\p{L}/u;

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();
const cleanLabel = (s: string) => tidy(s.replace(/[:=\-–—]+\s*$/u, ''));

/** A block's text as a value with its label, or null when the text is not one. */
export function parseReading(text: string): Reading | null {
  const reading = parseValue(text, { find: 'whole' });
  if (!reading) return null;
  return {
    label: cleanLabel(reading.label),
    kind: reading.kind,
    value: reading.value,
    unit: reading.unit === null ? null : canonicalUnit(reading.unit),
    needsText: reading.sign !== '' || reading.decimalComma,
  };
}

/** A series found on the upload: its frames (to lock), its name and cleaning, and where it sits on screen. */
export interface FoundSeries {
  /** The tracks it is made of (usually one; more when tracking split one field). The first names it. */
  trackIds: string[];
  /** Its frames, in frame order. */
  points: TrackPoint[];
  kind: ReadingKind;
  unit: string | null;
  /** The label as read on screen, or null when none was found (the name is then "Value N"). */
  label: string | null;
  /** Cleaning, with seriesName the name to show ("Battery (%)"). */
  settings: BlockSettings;
  /** Mean of the blocks' vertical centres (px): the view lists series top first. */
  averageY: number;
}

export interface FindSeriesOptions {
  /** Tracks to leave out (already selected); their blocks are not labels either, being readings. */
  excludeTrackIds?: ReadonlySet<string>;
  /** Names already in use: a found series does not take one of them. */
  takenNames?: Iterable<string>;
}

/** Share of a track's frames that must read as values of one kind. */
export const MIN_READABLE_SHARE = 0.6;
/** No value on more than this share of the readable frames: the reading changes all the time. */
export const MAX_STEADY_SHARE = 0.6;
/** Frames a new value must last to count as a change (fewer, and it may be a misread; see isLevel). */
export const MIN_LEVEL_FRAMES = 2;
/** A run this short between two runs of one value is a misread the reading returns from. */
export const MAX_MISREAD_FRAMES = 2;
export const MIN_SERIES_FRAMES = 3;
/** How far a label may be, in the value's heights: to the left on the same line, and above. */
export const LABEL_REACH = { left: 8, above: 3 } as const;
/**
 * How far a separate unit block may be to the right, in the value's heights: past the gap at which the OCR cuts a
 * line in two (1.5 of the line's average height, text-runs.ts), with room to spare.
 */
export const UNIT_REACH = 3;
/** Frames of a series looked at for its label (evenly spread): enough for a vote, cheap on 360 frames. */
const LABEL_SAMPLE = 24;
/** Share of the frames looked at on which a label must be seen beside its value to name it. */
export const MIN_LABEL_SHARE = 1 / 3;

interface Candidate {
  track: Track;
  kind: ReadingKind;
  /** The most common label inside the block ('' when the block holds the value alone). */
  inBlockLabel: string;
  unit: string | null;
  needsText: boolean;
  averageX: number;
  averageY: number;
  /** Average box, for joining split tracks. */
  box: Rect;
}

function mostCommon<T>(items: Iterable<T>, key: (item: T) => string = String): { item: T; count: number } | null {
  const counts = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const k = key(item);
    const entry = counts.get(k) ?? { item, count: 0 };
    entry.count++;
    counts.set(k, entry);
  }
  let best: { item: T; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best;
}

/** Consecutive frames with one value. */
interface Run {
  value: number;
  length: number;
}

function runsOf(values: readonly number[]): Run[] {
  const runs: Run[] = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last?.value === value) last.length++;
    else runs.push({ value, length: 1 });
  }
  return runs;
}

const decimalsOf = (n: number) => (String(n).split('.')[1] ?? '').length;

/** b is a display's smallest step away from a: one unit of the last digit shown (21.4 to 21.5, 45 to 44). */
function oneTick(a: number, b: number): boolean {
  const unit = 10 ** -Math.max(decimalsOf(a), decimalsOf(b));
  return Math.abs(Math.abs(a - b) - unit) < unit / 100;
}

/**
 * Whether a run is a level the reading settled on, and not a misread: it lasts MIN_LEVEL_FRAMES frames, unless it
 * is a short run between two runs of one value (a misread the reading returns from: 2024, 2021, 2024). One frame
 * between two other values is a level only when its value lies between theirs (a counter passing through: 20, 21,
 * 22). One frame at either end is a level only when it is one tick of the display from the run beside it (the last
 * frame shows 21.5 after 21.4: a value that just changed; 2021 after 2024 is a misread).
 */
function isLevel(runs: readonly Run[], at: number): boolean {
  const run = runs[at]!;
  const before = runs[at - 1];
  const after = runs[at + 1];
  if (before && after) {
    if (before.value === after.value) return run.length > MAX_MISREAD_FRAMES;
    if (run.length >= MIN_LEVEL_FRAMES) return true;
    return Math.min(before.value, after.value) < run.value && run.value < Math.max(before.value, after.value);
  }
  if (run.length >= MIN_LEVEL_FRAMES) return true;
  const beside = before ?? after;
  return beside !== undefined && oneTick(run.value, beside.value);
}

/**
 * True when the values change over the video: the reading settles on a new value at least once (see isLevel), so a
 * temperature that ticks up once in ten frames is a series, and a model number or a "220" misread now and then is
 * not; or no value is on most frames (a screen that updates every frame, with noise); or, on 3 frames or fewer,
 * any change.
 */
export function valuesChange(values: readonly number[]): boolean {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size < 2) return false;
  if (values.length <= 3) return true;
  if (Math.max(...counts.values()) / values.length <= MAX_STEADY_SHARE) return true;
  const runs = runsOf(values);
  const levels = runs.filter((_, i) => isLevel(runs, i));
  return levels.some((level, i) => i > 0 && level.value !== levels[i - 1]!.value);
}

function candidateOf(frames: readonly (readonly TextBlock[])[], track: Track, minFrames: number): Candidate | null {
  if (track.points.length < minFrames) return null;
  const readings: Reading[] = [];
  const boxes: Rect[] = [];
  for (const { frame, index } of track.points) {
    const block = frames[frame]?.[index];
    if (!block) continue;
    const reading = parseReading(block.text);
    if (reading) readings.push(reading);
    boxes.push(boundsOf(block.vertices));
  }
  const kind = mostCommon(readings, (r) => r.kind);
  if (!kind || kind.count < MIN_READABLE_SHARE * track.points.length) return null;
  const ofKind = readings.filter((r) => r.kind === kind.item.kind);
  if (!valuesChange(ofKind.map((r) => r.value))) return null;
  const mean = (pick: (r: Rect) => number) => boxes.reduce((sum, b) => sum + pick(b), 0) / boxes.length;
  const box = { x: mean((b) => b.x), y: mean((b) => b.y), w: mean((b) => b.w), h: mean((b) => b.h) };
  return {
    track,
    kind: kind.item.kind,
    inBlockLabel: mostCommon(ofKind.map((r) => r.label))!.item,
    unit: mostCommon(ofKind.filter((r) => r.unit !== null), (r) => r.unit!.toLowerCase())?.item.unit ?? null,
    needsText: ofKind.some((r) => r.needsText),
    averageX: box.x + box.w / 2,
    averageY: box.y + box.h / 2,
    box,
  };
}

const overlaps = (a0: number, a1: number, b0: number, b1: number) => a0 < b1 && b0 < a1;
const centreWithin = (a0: number, a1: number, b0: number, b1: number) => {
  const ca = (a0 + a1) / 2;
  const cb = (b0 + b1) / 2;
  return (ca >= b0 && ca <= b1) || (cb >= a0 && cb <= a1);
};

/** On the same line: either box's vertical centre inside the other's height. */
const sameLine = (a: Rect, b: Rect) => centreWithin(a.y, a.y + a.h, b.y, b.y + b.h);
/** Directly above or below: either box's horizontal centre inside the other's width. */
const sameColumn = (a: Rect, b: Rect) => centreWithin(a.x, a.x + a.w, b.x, b.x + b.w);

/** The nearest block (its index) to the left of `box` on the same line, or null. */
function nearestLeft(boxes: readonly Rect[], at: number): { index: number; gap: number } | null {
  const box = boxes[at]!;
  let best: { index: number; gap: number } | null = null;
  boxes.forEach((b, i) => {
    if (i === at || !sameLine(b, box) || b.x + b.w / 2 >= box.x + box.w / 2) return;
    const gap = Math.max(0, box.x - (b.x + b.w));
    if (!best || gap < best.gap) best = { index: i, gap };
  });
  return best;
}

function nearestRight(boxes: readonly Rect[], at: number): { index: number; gap: number } | null {
  const box = boxes[at]!;
  let best: { index: number; gap: number } | null = null;
  boxes.forEach((b, i) => {
    if (i === at || !sameLine(b, box) || b.x + b.w / 2 <= box.x + box.w / 2) return;
    const gap = Math.max(0, b.x - (box.x + box.w));
    if (!best || gap < best.gap) best = { index: i, gap };
  });
  return best;
}

function nearestAbove(boxes: readonly Rect[], at: number): { index: number; gap: number } | null {
  const box = boxes[at]!;
  let best: { index: number; gap: number } | null = null;
  boxes.forEach((b, i) => {
    if (i === at || !sameColumn(b, box) || overlaps(b.y, b.y + b.h, box.y, box.y + box.h) || b.y >= box.y) return;
    const gap = Math.max(0, box.y - (b.y + b.h));
    if (!best || gap < best.gap) best = { index: i, gap };
  });
  return best;
}

/** Evenly spread points of a track, at most `n`. */
function sample(points: readonly TrackPoint[], n: number): TrackPoint[] {
  if (points.length <= n) return [...points];
  return Array.from({ length: n }, (_, i) => points[Math.floor((i * points.length) / n)]!);
}

/** Each frame's block boxes, worked out once per frame when first asked for. */
type FrameBoxes = (frame: number) => Rect[];

function frameBoxes(frames: readonly (readonly TextBlock[])[]): FrameBoxes {
  const cache = new Map<number, Rect[]>();
  return (frame) => {
    let boxes = cache.get(frame);
    if (!boxes) {
      boxes = (frames[frame] ?? []).map((b) => boundsOf(b.vertices));
      cache.set(frame, boxes);
    }
    return boxes;
  };
}

/** The label and separate unit of a value block that holds the number alone, by a vote over its frames. */
function neighbourLabel(
  frames: readonly (readonly TextBlock[])[],
  boxesAt: FrameBoxes,
  candidate: Candidate,
  notLabels: ReadonlyMap<number, ReadonlySet<number>>,
): { label: string | null; unit: string | null } {
  const left: string[] = [];
  const above: string[] = [];
  const units: string[] = [];
  const looked = sample(candidate.track.points, LABEL_SAMPLE);
  for (const { frame, index } of looked) {
    const blocks = frames[frame];
    if (!blocks?.[index]) continue;
    const boxes = boxesAt(frame);
    const height = boxes[index]!.h || 1;
    // A label is text with a letter that is neither a series' reading nor a unit.
    const isLabel = (i: number) => !notLabels.get(frame)?.has(i) && HAS_LETTER.test(blocks[i]!.text);
    const toLeft = nearestLeft(boxes, index);
    const over = nearestAbove(boxes, index);
    if (toLeft && toLeft.gap <= LABEL_REACH.left * height && isLabel(toLeft.index)) left.push(cleanLabel(blocks[toLeft.index]!.text));
    if (over && over.gap <= LABEL_REACH.above * height && isLabel(over.index)) above.push(cleanLabel(blocks[over.index]!.text));
    if (candidate.kind === 'number' && candidate.unit === null) {
      const right = nearestRight(boxes, index);
      const text = right ? tidy(blocks[right.index]!.text) : '';
      if (right && right.gap <= UNIT_REACH * height && isUnitBlock(text)) units.push(canonicalUnit(text));
    }
  }
  // The text seen most often at a place, when it is seen there on at least `share` of the frames looked at.
  const vote = (texts: string[], share: number) => {
    const best = mostCommon(
      texts.filter((t) => t !== ''),
      (t) => t.toLowerCase(),
    );
    return best && best.count >= share * looked.length ? best.item : null;
  };
  return { label: vote(left, MIN_LABEL_SHARE) ?? vote(above, MIN_LABEL_SHARE), unit: vote(units, 1 / 2) };
}

/**
 * Per frame, the blocks that cannot be labels: the series' own blocks, and the blocks just right of a series'
 * number that read as a unit ("150" "kW").
 */
function notLabelsOf(frames: readonly (readonly TextBlock[])[], boxesAt: FrameBoxes, candidates: readonly Candidate[]): Map<number, Set<number>> {
  const units = new Map<number, Set<number>>();
  const add = (frame: number, index: number) => {
    const set = units.get(frame) ?? new Set<number>();
    set.add(index);
    units.set(frame, set);
  };
  for (const c of candidates) {
    for (const { frame, index } of c.track.points) add(frame, index);
    if (c.kind !== 'number' || c.unit !== null) continue;
    for (const { frame, index } of c.track.points) {
      const blocks = frames[frame]!;
      const boxes = boxesAt(frame);
      const right = nearestRight(boxes, index);
      if (right && right.gap <= UNIT_REACH * (boxes[index]!.h || 1) && isUnitBlock(blocks[right.index]!.text)) add(frame, right.index);
    }
  }
  return units;
}

/** Cleaning for a series of this kind whose blocks may hold `label` before the value. */
export function cleaningFor(kind: ReadingKind, label: string, unit: string | null, needsText: boolean): Omit<BlockSettings, 'seriesName'> {
  const { seriesName: _name, ...settings } = defaultBlockSettings('');
  const words = listedWords(label);
  // A label with a digit ("Pump 1") cannot be removed as words without taking that digit out of the value too
  // ("1.5" would lose its "1"): the value is then the piece after the label's words, split on spaces.
  const withoutLabel: Partial<BlockSettings> = words.some((w) => /\d/.test(w))
    ? { characterToSplit: ' ', keepSplitItem: label.trim().split(/\s+/).length + 1 }
    : { wordsToRemove: words.join(' ') };
  if (kind === 'time') return { ...settings, ...withoutLabel };
  if (!needsText) return { ...settings, ...withoutLabel, numbersOnly: true };
  // Numbers only would drop the sign or the decimal comma: take the unit away instead.
  const unitWords = unit ? listedWords(unit) : [];
  const unitSymbols = unit ? unit.replace(/[\p{L}\p{N}_]/gu, '') : '';
  const labelWords = withoutLabel.wordsToRemove ? [withoutLabel.wordsToRemove] : [];
  return { ...settings, ...withoutLabel, wordsToRemove: [...labelWords, ...unitWords].join(' '), charactersToRemove: unitSymbols };
}

/** A name not in `taken` (case-insensitive): the name itself, else with " 2", " 3", ... */
function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out.toLowerCase()); n++) out = `${name} ${n}`;
  taken.add(out.toLowerCase());
  return out;
}

interface Named {
  candidates: Candidate[];
  label: string | null;
  unit: string | null;
}

/** Joins tracks of one field (same label and unit, same spot, no shared frame) into one series. */
function joinSplitTracks(named: readonly Named[]): Named[] {
  const out: Named[] = [];
  for (const n of named) {
    const c = n.candidates[0]!;
    const into = out.find((o) => {
      const first = o.candidates[0]!;
      if (n.label === null || o.label?.toLowerCase() !== n.label.toLowerCase() || o.unit !== n.unit || first.kind !== c.kind) return false;
      const centre = { x: c.averageX, y: c.averageY };
      const inside = centre.x >= first.box.x && centre.x <= first.box.x + first.box.w && centre.y >= first.box.y && centre.y <= first.box.y + first.box.h;
      const frames = new Set(o.candidates.flatMap((x) => x.track.points.map((p) => p.frame)));
      return inside && c.track.points.every((p) => !frames.has(p.frame));
    });
    if (into) into.candidates.push(...n.candidates);
    else out.push({ ...n, candidates: [...n.candidates] });
  }
  return out;
}

/**
 * Every series of changing numbers on the upload, in screen order (screen-order.ts), named and with
 * their cleaning. `tracks` is the view's current tracking of `frames`.
 */
export function findNumberSeries(frames: readonly (readonly TextBlock[])[], tracks: readonly Track[], options: FindSeriesOptions = {}): FoundSeries[] {
  const minFrames = Math.min(MIN_SERIES_FRAMES, frames.length);
  const exclude = options.excludeTrackIds ?? new Set<string>();
  const candidates = inReadingOrder(
    tracks
      .filter((t) => !exclude.has(t.id))
      .map((t) => candidateOf(frames, t, minFrames))
      .filter((c): c is Candidate => c !== null),
    (c) => ({ x: c.averageX, y: c.averageY, height: c.box.h }),
  );
  const boxesAt = frameBoxes(frames);
  const notLabels = notLabelsOf(frames, boxesAt, candidates);

  const named = candidates.map((c): Named => {
    if (c.inBlockLabel !== '') return { candidates: [c], label: c.inBlockLabel, unit: c.unit };
    const beside = neighbourLabel(frames, boxesAt, c, notLabels);
    return { candidates: [c], label: beside.label, unit: c.unit ?? beside.unit };
  });

  const taken = new Set(Array.from(options.takenNames ?? [], (n) => n.trim().toLowerCase()));
  let unnamed = 0;
  return joinSplitTracks(named).map(({ candidates: parts, label, unit }) => {
    const first = parts[0]!;
    const base = label ?? `Value ${++unnamed}`;
    const name = uniqueName(first.kind === 'number' && unit ? `${base} (${unit})` : base, taken);
    const points = parts.flatMap((p) => p.track.points).sort((a, b) => a.frame - b.frame);
    const count = parts.reduce((sum, p) => sum + p.track.points.length, 0);
    return {
      trackIds: parts.map((p) => p.track.id),
      points,
      kind: first.kind,
      unit,
      label,
      // Only a label inside the blocks is removed from their text (a label beside them may hold a digit: "Cell 3").
      settings: { seriesName: name, ...cleaningFor(first.kind, parts.find((p) => p.inBlockLabel !== '')?.inBlockLabel ?? '', unit, parts.some((p) => p.needsText)) },
      averageY: parts.reduce((sum, p) => sum + p.averageY * p.track.points.length, 0) / count,
    };
  });
}
