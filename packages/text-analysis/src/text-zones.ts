import { boundsOf, normaliseConfidence, type Rect, type TextBlock } from './geometry.js';
import { defaultRect, fitRect } from './region-boxes.js';
import { sameCaption } from './subtitles.js';

/*
 * Where an upload's text sits, found from the detections of all its frames, so the Region view's first box (and the
 * API's default caption export) lands on the captions without the person placing it. The frame is cut into a grid
 * of ZONE_COLUMNS x ZONE_ROWS cells; each cell follows the text of the blocks covering it from frame to frame:
 * - a cell is used when text sits there on at least two frames (one, for a single frame);
 * - it is changing when its text changes at least ZONE_MIN_CHANGES times (captions come and go), still otherwise
 *   (a logo, a channel name); blank frames between two readings are no change;
 * - touching used cells of the same kind make a zone (still text touching captions and seen on under half the frames
 *   joins them: the top line of a few two-line captions); its place is the union of the blocks centred in it, with a
 *   margin of half a line above and below (descenders) and ZONE_MARGIN_X at the sides.
 * Only blocks read with at least ZONE_MIN_CONFIDENCE, holding two letters or digits, count (specks are noise).
 * The caption band is the changing zone whose text changed most; with none, the box stays where it always started.
 */

export const ZONE_COLUMNS = 32;
export const ZONE_ROWS = 24;
export const ZONE_MIN_CHANGES = 2;
export const ZONE_MIN_CONFIDENCE = 60;
export const ZONE_MARGIN_X = 0.03;
/** At most this many zones are offered, changing ones first. */
export const MAX_ZONES = 6;

export interface ZoneFrame {
  blocks: readonly TextBlock[];
  /** The frame's size in pixels; a frame whose size is unknown is skipped. */
  space: { width: number; height: number } | null;
}

export interface TextZone {
  /** Where a box goes to take the zone's text, normalised to 0..1 of the frame, margin included. */
  rect: Rect;
  /** The text there changes from frame to frame (captions), rather than staying (a logo, a channel name). */
  changing: boolean;
  /** How many times the text there changed. */
  changes: number;
  /** How many frames have text there. */
  frames: number;
  /** Where it is, for people: "bottom band", "top-right corner", "middle". */
  name: string;
}

interface PlacedBlock {
  text: string;
  /** Normalised to 0..1 of the frame. */
  rect: Rect;
  centreCell: number;
}

const cellIndex = (column: number, row: number) => row * ZONE_COLUMNS + column;
const toCell = (share: number, count: number) => Math.min(count - 1, Math.max(0, Math.floor(share * count)));

function countsAsText(block: TextBlock): boolean {
  if ((block.text.match(/[\p{L}\p{N}]/gu) ?? []).length < 2) return false;
  return block.confidence === undefined || normaliseConfidence(block.confidence) >= ZONE_MIN_CONFIDENCE;
}

/** The frame's readable blocks, normalised, each with the cells it covers. */
function placeBlocks(frame: ZoneFrame): { block: PlacedBlock; cells: number[] }[] {
  const space = frame.space;
  if (!space || space.width <= 0 || space.height <= 0) return [];
  return frame.blocks.filter((b) => b.vertices.length > 0 && countsAsText(b)).map((b) => {
    const px = boundsOf(b.vertices);
    const rect = { x: px.x / space.width, y: px.y / space.height, w: px.w / space.width, h: px.h / space.height };
    const [left, right] = [toCell(rect.x, ZONE_COLUMNS), toCell(rect.x + rect.w - 1e-9, ZONE_COLUMNS)];
    const [top, bottom] = [toCell(rect.y, ZONE_ROWS), toCell(rect.y + rect.h - 1e-9, ZONE_ROWS)];
    const cells: number[] = [];
    for (let row = top; row <= bottom; row++) for (let column = left; column <= right; column++) cells.push(cellIndex(column, row));
    const centreCell = cellIndex(toCell(rect.x + rect.w / 2, ZONE_COLUMNS), toCell(rect.y + rect.h / 2, ZONE_ROWS));
    return { block: { text: b.text.trim(), rect, centreCell }, cells };
  });
}

/** How often a sequence of readings (blank ones skipped) changes to another caption. */
function countChanges(readings: readonly string[], same: (a: string, b: string) => boolean): number {
  let changes = 0;
  let last: string | undefined;
  for (const reading of readings) {
    if (!reading) continue;
    if (last !== undefined && reading !== last && !same(last, reading)) changes++;
    last = reading;
  }
  return changes;
}

/** The cells left, right, above and below a cell. */
function neighbours(cell: number): number[] {
  const [column, row] = [cell % ZONE_COLUMNS, Math.floor(cell / ZONE_COLUMNS)];
  const around = [column > 0 ? cell - 1 : -1, column < ZONE_COLUMNS - 1 ? cell + 1 : -1, row > 0 ? cell - ZONE_COLUMNS : -1, row < ZONE_ROWS - 1 ? cell + ZONE_COLUMNS : -1];
  return around.filter((c) => c >= 0);
}

/** Touching cells (left, right, up, down) of the same kind, as groups of cell indexes. */
function connectedCells(kinds: readonly (boolean | null)[]): number[][] {
  const seen = new Set<number>();
  const groups: number[][] = [];
  kinds.forEach((kind, start) => {
    if (kind === null || seen.has(start)) return;
    const group: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const cell = stack.pop()!;
      group.push(cell);
      for (const next of neighbours(cell)) {
        if (!seen.has(next) && kinds[next] === kind) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    groups.push(group);
  });
  return groups;
}

const framesWithTextIn = (cells: ReadonlySet<number>, placed: readonly { block: PlacedBlock }[][]) =>
  placed.filter((blocks) => blocks.some(({ block }) => cells.has(block.centreCell))).length;

/**
 * Still text touching changing text and seen on under half the frames with text is part of the captions (the top line
 * of the few two-line captions), so it joins them; still text seen on most frames (a logo beside them) stays apart.
 */
function joinPartLines(groups: readonly number[][], kinds: readonly (boolean | null)[], placed: readonly { block: PlacedBlock }[][]): Set<number>[] {
  const sets = groups.map((g) => new Set(g));
  const owner = new Map<number, Set<number>>();
  for (const set of sets) for (const cell of set) owner.set(cell, set);
  const framesWithText = placed.filter((blocks) => blocks.length > 0).length;
  for (const set of sets) {
    const first = set.values().next().value!;
    if (kinds[first] !== false || framesWithTextIn(set, placed) >= framesWithText / 2) continue;
    const touching = [...set].flatMap(neighbours).map((c) => owner.get(c)).find((other) => other && other !== set && kinds[other.values().next().value!] === true);
    if (!touching) continue;
    for (const cell of set) {
      touching.add(cell);
      owner.set(cell, touching);
    }
    set.clear();
  }
  return sets.filter((s) => s.size > 0);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The union of the blocks' places, half a line higher and lower and ZONE_MARGIN_X wider on each side. */
function withMargin(rects: readonly Rect[]): Rect {
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.w));
  const bottom = Math.max(...rects.map((r) => r.y + r.h));
  const marginY = median(rects.map((r) => r.h)) / 2;
  const x = Math.max(0, left - ZONE_MARGIN_X);
  const y = Math.max(0, top - marginY);
  return fitRect({ x, y, w: Math.min(1, right + ZONE_MARGIN_X) - x, h: Math.min(1, bottom + marginY) - y });
}

/** "bottom band" (half the width or more), "top-right corner", "left side", "top centre" or "middle". */
export function zoneName(rect: Rect): string {
  const cx = rect.x + rect.w / 2;
  const cy = rect.y + rect.h / 2;
  const vertical = cy < 1 / 3 ? 'top' : cy > 2 / 3 ? 'bottom' : 'middle';
  const horizontal = cx < 1 / 3 ? 'left' : cx > 2 / 3 ? 'right' : 'centre';
  if (rect.w >= 0.5) return vertical === 'middle' ? 'middle band' : `${vertical} band`;
  if (horizontal === 'centre') return vertical === 'middle' ? 'middle' : `${vertical} centre`;
  return vertical === 'middle' ? `${horizontal} side` : `${vertical}-${horizontal} corner`;
}

/** The zones where the upload's text sits (see the rules at the top of this file), changing ones first. */
export function textZones(frames: readonly ZoneFrame[]): TextZone[] {
  const placed = frames.map(placeBlocks);
  const cellCount = ZONE_COLUMNS * ZONE_ROWS;
  // Each cell's reading per frame: the texts of the blocks covering it, left to right.
  const readings: string[][] = Array.from({ length: cellCount }, () => []);
  placed.forEach((blocks, f) => {
    const byCell = new Map<number, PlacedBlock[]>();
    for (const { block, cells } of blocks) for (const cell of cells) byCell.set(cell, [...(byCell.get(cell) ?? []), block]);
    for (const [cell, inCell] of byCell) readings[cell]![f] = inCell.sort((a, b) => a.rect.x - b.rect.x).map((b) => b.text).join(' ');
  });
  const memo = new Map<string, boolean>();
  const same = (a: string, b: string) => {
    const key = `${a}\u0000${b}`;
    if (!memo.has(key)) memo.set(key, sameCaption(a, b));
    return memo.get(key)!;
  };
  const minFrames = Math.min(2, placed.filter((b) => b.length > 0).length);
  const seenOn = readings.map((r) => r.filter(Boolean).length);
  const changes = readings.map((r) => (r.length ? countChanges(r, same) : 0));
  const kinds = readings.map((_, cell) => (minFrames > 0 && seenOn[cell]! >= minFrames ? changes[cell]! >= ZONE_MIN_CHANGES : null));

  const groups = joinPartLines(connectedCells(kinds), kinds, placed);
  const zones: TextZone[] = [];
  for (const cells of groups) {
    const rects = placed.flatMap((blocks) => blocks.filter(({ block }) => cells.has(block.centreCell)).map(({ block }) => block.rect));
    if (rects.length === 0) continue;
    const rect = withMargin(rects);
    const first = cells.values().next().value!;
    zones.push({ rect, changing: kinds[first]!, changes: Math.max(...[...cells].map((c) => changes[c]!)), frames: framesWithTextIn(cells, placed), name: zoneName(rect) });
  }
  zones.sort((a, b) => Number(b.changing) - Number(a.changing) || (a.changing ? b.changes - a.changes : 0) || b.frames - a.frames);
  return uniqueNames(zones.slice(0, MAX_ZONES));
}

/** A second "bottom band" becomes "bottom band 2", so every zone's button has its own name. */
function uniqueNames(zones: TextZone[]): TextZone[] {
  const count = new Map<string, number>();
  return zones.map((zone) => {
    const n = (count.get(zone.name) ?? 0) + 1;
    count.set(zone.name, n);
    return n === 1 ? zone : { ...zone, name: `${zone.name} ${n}` };
  });
}

/** The band where captions come and go: the changing zone whose text changed most; null when no text changes. */
export function captionBand(zones: readonly TextZone[]): Rect | null {
  const changing = zones.filter((z) => z.changing);
  if (changing.length === 0) return null;
  return changing.reduce((best, z) => (z.changes > best.changes ? z : best)).rect;
}

/** Where the first box starts: on the caption band, or where it always started when no text changes. */
export const defaultCaptionBox = (zones: readonly TextZone[]): Rect => captionBand(zones) ?? defaultRect(0);

/** The zones of an upload's frames as the Region view and the exports have them (blocks in `space` pixels). */
export const zonesOfFrames = (frames: readonly { detections: readonly TextBlock[] }[], spaceOf: (index: number) => ZoneFrame['space']): TextZone[] =>
  textZones(frames.map((f, i) => ({ blocks: f.detections, space: spaceOf(i) })));
