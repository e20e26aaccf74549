import { boundsOf, type Rect, type TextBlock } from './geometry.js';
import type { Track, TrackPoint } from './block-tracking.js';
import { findNumberSeries, type FoundSeries } from './number-series.js';
import { orderByPosition, seriesValues, type SeriesValues } from './numerical-export.js';
import { seriesLabel } from './series-names.js';
import type { BlockSettings } from './text-cleaning.js';

/*
 * The Numerical view's series: the selected blocks (picked on the frame, or found by Find the numbers), each
 * followed over the frames and cleaned into one value per frame, top of the screen first. The browser's view and the
 * results service's export both build the series here.
 */

export interface SelectedBlock {
  /** The tracked block it follows while unlocked; `locked-<uniqueID>` while locked. */
  id: string;
  /** The tracked block it was picked as. */
  originalId: string;
  locked: boolean;
  /** Random 1000..9999, unique among the selected blocks: the series' identity in the table and the editor. */
  uniqueID: number;
  /** Its frames, frozen when it was locked (null while unlocked: tracking says). */
  points: TrackPoint[] | null;
  /** Frames with the block, frozen when it was locked. */
  total: number | null;
  settings: BlockSettings;
}

/** A series Find the numbers found, ready to add locked: the tracked block it starts from, its frames and cleaning. */
export interface FoundBlock {
  originalId: string;
  points: TrackPoint[];
  settings: BlockSettings;
  uniqueID: number;
}

export const UNIQUE_ID_MIN = 1000;
export const UNIQUE_ID_MAX = 9999;

/** A random integer 1000..9999 that no selected block has yet. */
export function newUniqueID(blocks: readonly Pick<SelectedBlock, 'uniqueID'>[], random: () => number = Math.random): number {
  const taken = new Set(blocks.map((b) => b.uniqueID));
  for (;;) {
    const id = UNIQUE_ID_MIN + Math.floor(random() * (UNIQUE_ID_MAX - UNIQUE_ID_MIN + 1));
    if (!taken.has(id)) return id;
  }
}

/** A found series as a selected block: locked on its frames, named and cleaned as found. */
export function lockedFoundBlock(f: FoundBlock): SelectedBlock {
  return { id: `locked-${f.uniqueID}`, originalId: f.originalId, locked: true, uniqueID: f.uniqueID, points: f.points, total: f.points.length, settings: f.settings };
}

/** A selected block with its frames and cleaned values: what the tables, the chart and the CSV show. */
export interface BlockSeries {
  block: SelectedBlock;
  points: readonly TrackPoint[];
  /** frame -> the block's position in that frame's detections. */
  indexByFrame: ReadonlyMap<number, number>;
  values: SeriesValues;
}

const NO_POINTS: readonly TrackPoint[] = [];

/** A block's frames: frozen when locked, otherwise its track's (none when tracking no longer has it). */
export function pointsOf(block: SelectedBlock, tracks: ReadonlyMap<string, Track>): readonly TrackPoint[] {
  return block.points ?? tracks.get(block.id)?.points ?? NO_POINTS;
}

// A block's series is worked out again only when the block (its settings, its lock) or its frames change.
const cache = new WeakMap<SelectedBlock, { frames: readonly (readonly TextBlock[])[]; points: readonly TrackPoint[]; series: BlockSeries }>();

export function seriesOf(frames: readonly (readonly TextBlock[])[], block: SelectedBlock, tracks: ReadonlyMap<string, Track>): BlockSeries {
  const points = pointsOf(block, tracks);
  const hit = cache.get(block);
  if (hit && hit.frames === frames && hit.points === points) return hit.series;
  const { seriesName: _name, ...cleaning } = block.settings;
  const series: BlockSeries = {
    block,
    points,
    indexByFrame: new Map(points.map((p) => [p.frame, p.index])),
    values: seriesValues(frames, points, seriesLabel(block.settings.seriesName, block.originalId), cleaning),
  };
  cache.set(block, { frames, points, series });
  return series;
}

/** Series in screen order (top first, left to right along a line; the order picked where equal), as export.csv. */
export function inScreenOrder(rows: readonly BlockSeries[]): BlockSeries[] {
  return orderByPosition(rows.map((row) => ({ row, averageY: row.values.averageY, averageX: row.values.averageX, averageHeight: row.values.averageHeight }))).map(({ row }) => row);
}

/**
 * Where a series' block usually is: the median of its boxes' left, top, width and height over its frames, or null
 * when it has none. The proofreader crops a frame there when nothing was read on it.
 */
export function usualBox(frames: readonly (readonly TextBlock[])[], points: readonly TrackPoint[]): Rect | null {
  const boxes = points.flatMap(({ frame, index }) => {
    const block = frames[frame]?.[index];
    return block ? [boundsOf(block.vertices)] : [];
  });
  if (boxes.length === 0) return null;
  const middle = (pick: (r: Rect) => number) => boxes.map(pick).sort((a, b) => a - b)[boxes.length >> 1]!;
  return { x: middle((r) => r.x), y: middle((r) => r.y), w: middle((r) => r.w), h: middle((r) => r.h) };
}

export interface FindOutcome {
  /** The blocks to add (none when nothing new was found). */
  series: FoundBlock[];
  message: string;
}

const pointKey = (frame: number, index: number) => `${frame}:${index}`;

/**
 * "Find the numbers": the series findNumberSeries finds on the current tracking, less those already selected, and
 * the sentence that tells the person what happened. A track that shares a frame's block with a selected series
 * (locked or not) is that series already, so a second click adds nothing twice; names in use are not given again.
 */
export function findNewSeries(
  frames: readonly (readonly TextBlock[])[],
  tracks: readonly Track[],
  trackById: ReadonlyMap<string, Track>,
  selected: readonly { block: SelectedBlock; name: string }[],
  random: () => number = Math.random,
): FindOutcome {
  const used = new Set(selected.flatMap(({ block }) => pointsOf(block, trackById).map((p) => pointKey(p.frame, p.index))));
  const excludeTrackIds = new Set(tracks.filter((t) => t.points.some((p) => used.has(pointKey(p.frame, p.index)))).map((t) => t.id));
  const found: FoundSeries[] = findNumberSeries(frames, tracks, { excludeTrackIds, takenNames: selected.map((s) => s.name) });
  const ids: { uniqueID: number }[] = selected.map((s) => s.block);
  const series = found.map((f): FoundBlock => {
    const uniqueID = newUniqueID(ids, random);
    ids.push({ uniqueID });
    return { originalId: f.trackIds[0]!, points: f.points, settings: f.settings, uniqueID };
  });
  return { series, message: outcomeMessage(series, selected.length > 0) };
}

function outcomeMessage(series: readonly FoundBlock[], someSelected: boolean): string {
  if (series.length > 0) return `Found ${series.length} series: ${series.map((s) => s.settings.seriesName).join(', ')}. Each is locked; edit, unlock or remove it below.`;
  if (someSelected) return 'No new series found; the ones already selected stay as they are.';
  return 'No numbers that change over the video were found. Click a box on the frame to pick a block yourself.';
}
