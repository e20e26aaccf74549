import { areaOf, normaliseConfidence, type TextBlock } from './geometry.js';
import { comparableText, similarAsWritten, similarEnough, type ComparableText } from './text-similarity.js';

/*
 * The Numerical view's tracking: which text block on each frame is "the same block" as on the frames before, so
 * that a reading that changes every frame (a battery percentage, a speed) becomes one series.
 *
 * Frame by frame, each block may continue one live track (a track stays live until it has been missing for more
 * than the allowable disappearance). Distances are weighted: 0.7 |dx| + 0.3 |dy| between centres, in pixels. A
 * (track, block) pair is a candidate when
 *   - the block sits on the track's spot (each one's centre inside the other's box): the same field, whatever the
 *     OCR made of it this time; or
 *   - it is nearby (closer than 50) and the texts are alike by the better of two measures: as written, or with
 *     every number read as '#' (so "Battery 20%" and "Battery 21%", or "99 kW" and "100 kW", are 100% alike); or
 *   - it is farther, up to 1000, and the texts as written reach the similarity requirement (a block that moved
 *     keeps its identity, but a field cannot take over another field's place just because both show numbers).
 * Candidates are taken closest first (ties: the older track, then the block listed first), each track and each
 * block once. A block left over starts a new track. Blocks without text, below the minimum size or under the
 * required confidence take no part.
 *
 * Ids name the block that started the track ("block-<frame>-<position in that frame's list>", both 1-based), so the
 * same input always gives the same ids, and a filter that drops other blocks does not rename this one.
 *
 * Cost: nearby candidates are found through a grid over the weighted coordinates, so on the usual frame (every
 * field a few pixels from where it was) a block meets a handful of tracks; only the blocks and tracks left over
 * are compared with each other.
 */

export interface TrackingSettings {
  /** Similarity requirement, percent (75..100, step 0.5). */
  similarity: number;
  /** Allowable disappearance: frames a track may be missing and still continue (0..10). */
  disappearance: number;
  /** Minimum block size as a share of the largest block, compared on a square-root scale (0..1, step 0.05). */
  minSize: number;
  /** Required confidence (50..100); blocks without a confidence always pass. */
  confidence: number;
}

export const DEFAULT_TRACKING_SETTINGS: Readonly<TrackingSettings> = { similarity: 85, disappearance: 1, minSize: 0, confidence: 50 };

export const TRACKING_LIMITS: Readonly<Record<keyof TrackingSettings, { min: number; max: number; step: number }>> = {
  similarity: { min: 75, max: 100, step: 0.5 },
  disappearance: { min: 0, max: 10, step: 1 },
  minSize: { min: 0, max: 1, step: 0.05 },
  confidence: { min: 50, max: 100, step: 1 },
};

/** The required confidence when a caller gives none (the view always gives one: its slider starts at 50). */
export const UNSPECIFIED_CONFIDENCE_THRESHOLD = 80;
/** The farthest a block may be from a track's last position and still continue it (weighted pixels). */
export const MAX_MATCH_DISTANCE = 1000;
export const POSITION_WEIGHTS = { x: 0.7, y: 0.3 } as const;
/** Within this weighted distance a block's numbers may change freely (the digit-insensitive similarity counts). */
export const NEARBY_DISTANCE = 50;

/** One appearance of a track: the frame and the block's position in that frame's list. */
export interface TrackPoint {
  frame: number;
  index: number;
}

export interface Track {
  id: string;
  /** In frame order. */
  points: TrackPoint[];
}

export interface TrackingResult {
  /** In order of first appearance. */
  tracks: Track[];
  /** trackIdAt[frame][index]: the track of that block, or null when the block takes no part. */
  trackIdAt: (string | null)[][];
}

/** Weighted distance between two centres: 0.7 |dx| + 0.3 |dy|. */
export function weightedDistance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return POSITION_WEIGHTS.x * Math.abs(a.x - b.x) + POSITION_WEIGHTS.y * Math.abs(a.y - b.y);
}

export function trackId(frame: number, index: number): string {
  return `block-${frame + 1}-${index + 1}`;
}

/** The largest block area over all frames (blocks with text). */
export function largestBlockArea(frames: readonly (readonly TextBlock[])[]): number {
  let largest = 0;
  for (const blocks of frames) for (const b of blocks) if (b.text.trim() !== '') largest = Math.max(largest, areaOf(b));
  return largest;
}

/** True when a block is big enough: sqrt(area) >= share x sqrt(largest area). A share of 0 keeps every block. */
export function bigEnough(area: number, largestArea: number, share: number): boolean {
  return share <= 0 || Math.sqrt(Math.max(0, area)) >= share * Math.sqrt(largestArea);
}

/** True when a block's confidence (0..1 fractions count as percent) reaches `required`; no confidence passes. */
export function confidentEnough(block: TextBlock, required: number): boolean {
  return block.confidence === undefined || normaliseConfidence(block.confidence) >= required;
}

/** A block (or a track's last block) as the matching sees it. */
interface Spot {
  left: number;
  top: number;
  right: number;
  bottom: number;
  cx: number;
  cy: number;
  /** Centre in weighted coordinates (x 0.7, y 0.3): the distance between two spots is |dX| + |dY|. */
  wx: number;
  wy: number;
  text: ComparableText;
}

interface Candidate extends Spot {
  index: number;
  track: LiveTrack | null;
}

interface LiveTrack {
  spot: Spot;
  order: number;
  lastFrame: number;
  matched: boolean;
  track: Track;
}

function spotOf(block: TextBlock): Spot {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const p of block.vertices) {
    if (p.x < left) left = p.x;
    if (p.x > right) right = p.x;
    if (p.y < top) top = p.y;
    if (p.y > bottom) bottom = p.y;
  }
  if (block.vertices.length === 0) left = top = right = bottom = 0;
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  return { left, top, right, bottom, cx, cy, wx: POSITION_WEIGHTS.x * cx, wy: POSITION_WEIGHTS.y * cy, text: comparableText(block.text) };
}

/** Each centre inside the other's box. */
function sameSpot(a: Spot, b: Spot): boolean {
  return (
    a.cx >= b.left && a.cx <= b.right && a.cy >= b.top && a.cy <= b.bottom && b.cx >= a.left && b.cx <= a.right && b.cy >= a.top && b.cy <= a.bottom
  );
}

const distanceBetween = (a: Spot, b: Spot) => Math.abs(a.wx - b.wx) + Math.abs(a.wy - b.wy);

/** Grid cell size in weighted pixels; also the reach of the digit-insensitive similarity (NEARBY_DISTANCE). */
const CELL = NEARBY_DISTANCE;
const cellKey = (ix: number, iy: number) => ix * 1_048_576 + iy;

interface Pair {
  distance: number;
  track: LiveTrack;
  block: Candidate;
}

const byDistance = (p: Pair, q: Pair) => p.distance - q.distance || p.track.order - q.track.order || p.block.index - q.block.index;

/** Takes pairs closest first, each track and each block once. */
function assign(pairs: Pair[]): void {
  pairs.sort(byDistance);
  for (const p of pairs) {
    if (p.track.matched || p.block.track) continue;
    p.track.matched = true;
    p.block.track = p.track;
  }
}

/**
 * Follows text blocks across frames (see the rules at the top of this file). `frames[f]` is frame f's blocks;
 * settings not given take the defaults (and the required confidence, when not given, is 80).
 */
export function trackBlocks(frames: readonly (readonly TextBlock[])[], settings: Partial<TrackingSettings> = {}): TrackingResult {
  const threshold = (settings.similarity ?? DEFAULT_TRACKING_SETTINGS.similarity) / 100;
  const allowedGap = Math.max(0, Math.floor(settings.disappearance ?? DEFAULT_TRACKING_SETTINGS.disappearance));
  const minSize = settings.minSize ?? DEFAULT_TRACKING_SETTINGS.minSize;
  const required = settings.confidence ?? UNSPECIFIED_CONFIDENCE_THRESHOLD;
  const largest = minSize > 0 ? largestBlockArea(frames) : 0;

  const tracks: Track[] = [];
  const trackIdAt: (string | null)[][] = [];
  let live: LiveTrack[] = [];

  for (let frame = 0; frame < frames.length; frame++) {
    const blocks = frames[frame]!;
    const ids = new Array<string | null>(blocks.length).fill(null);
    trackIdAt.push(ids);
    live = live.filter((t) => frame - t.lastFrame - 1 <= allowedGap);

    const candidates: Candidate[] = [];
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]!;
      if (block.text.trim() === '' || !confidentEnough(block, required) || !bigEnough(areaOf(block), largest, minSize)) continue;
      const candidate = spotOf(block) as Candidate;
      candidate.index = index;
      candidate.track = null;
      candidates.push(candidate);
    }

    const grid = new Map<number, LiveTrack[]>();
    for (const t of live) {
      t.matched = false;
      const key = cellKey(Math.floor(t.spot.wx / CELL), Math.floor(t.spot.wy / CELL));
      const cell = grid.get(key);
      if (cell) cell.push(t);
      else grid.set(key, [t]);
    }

    // Nearby pairs through the grid (the 3x3 cells around a block hold every track closer than one cell):
    // the same spot, or texts alike by either measure.
    const near: Pair[] = [];
    for (const b of candidates) {
      const ix = Math.floor(b.wx / CELL);
      const iy = Math.floor(b.wy / CELL);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          const cell = grid.get(cellKey(ix + dx, iy + dy));
          if (!cell) continue;
          for (const t of cell) {
            const distance = distanceBetween(t.spot, b);
            if (distance < CELL && (sameSpot(t.spot, b) || similarEnough(t.spot.text, b.text, threshold))) near.push({ distance, track: t, block: b });
          }
        }
      }
    }
    assign(near);

    // Farther pairs among what is left, up to the maximum distance: the same spot (large boxes), or texts alike
    // as written (a moved block must keep its digits too, or any field could take over a missing one).
    const restBlocks = candidates.filter((b) => !b.track);
    const restTracks = live.filter((t) => !t.matched);
    if (restBlocks.length > 0 && restTracks.length > 0) {
      const far: Pair[] = [];
      for (const b of restBlocks) {
        for (const t of restTracks) {
          const distance = distanceBetween(t.spot, b);
          if (distance >= CELL && distance <= MAX_MATCH_DISTANCE && (sameSpot(t.spot, b) || similarAsWritten(t.spot.text, b.text, threshold))) {
            far.push({ distance, track: t, block: b });
          }
        }
      }
      assign(far);
    }

    for (const b of candidates) {
      let t = b.track;
      if (t) {
        t.spot = b;
        t.lastFrame = frame;
      } else {
        const track: Track = { id: trackId(frame, b.index), points: [] };
        tracks.push(track);
        t = { spot: b, order: tracks.length, lastFrame: frame, matched: true, track };
        live.push(t);
      }
      t.track.points.push({ frame, index: b.index });
      ids[b.index] = t.track.id;
    }
  }

  return { tracks, trackIdAt };
}
