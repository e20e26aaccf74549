import { grow, unionBox, type Box } from './geometry.js';

/**
 * What a worker remembers of an upload's last reading by one pass: the pixels it compared (the grey frame for the
 * bare pass, the white mask for the mask pass) and the runs of words it found. On a dashboard, a slide or a caption
 * video most of a frame is what an earlier frame showed; text in a region whose pixels have not changed since is
 * carried over with its boxes instead of being read again. Where only part of a frame was read again, the
 * remembered pixels are the new frame's there and the earlier ones elsewhere, so every remembered run matches the
 * pixels it was read from, and a slow drift (compression noise adding up) still ends in a reading.
 */
export interface Reading<C> {
  width: number;
  height: number;
  /** One byte a pixel. */
  pixels: Buffer;
  candidates: C[];
}

/** An upload's last readings, by pass ('bare', 'mask'). */
export type Readings<C> = Partial<Record<string, Reading<C>>>;

/** One frame's view of its upload's memory (FrameMemories.of). */
export interface MemoryHandle<C> {
  /**
   * The upload's last readings. Undefined for the frame that reads them first; the others wait until it settles
   * (and get undefined too if it failed without reading).
   */
  previous(): Promise<Readings<C> | undefined>;
  remember(pass: string, reading: Reading<C>): void;
  /** The frame is done (read or failed): frames waiting for its readings go on. Safe to call more than once. */
  settle(): void;
}

interface Entry<C> {
  readings: Readings<C>;
  pending?: Promise<void>;
  release?: () => void;
}

/** The last readings of each of the most recent uploads a worker read (a few MB each at most). */
export class FrameMemories<C> {
  private readonly entries = new Map<string, Entry<C>>();

  constructor(private readonly max = 16) {}

  /**
   * A frame's handle on its upload's memory, taken as soon as the frame arrives. When nothing is remembered and no
   * frame is reading, this frame becomes the one that reads first, there and then: the upload's first reading is
   * its first frame to arrive, not whichever frame happens to be decoded first. Text that never changes is carried
   * over from that reading to every later frame, so this keeps an upload's results the same from run to run.
   */
  of(key: string): MemoryHandle<C> {
    let claimed: Entry<C> | undefined;
    const claim = (entry: Entry<C>) => {
      claimed = entry;
      entry.pending = new Promise<void>((resolve) => (entry.release = resolve));
    };
    const first = this.entry(key);
    if (!hasReadings(first) && !first.pending) claim(first);
    return {
      previous: async () => {
        if (claimed) return undefined;
        const entry = this.entry(key);
        if (hasReadings(entry)) return entry.readings;
        if (entry.pending) {
          await entry.pending;
          return hasReadings(entry) ? entry.readings : undefined;
        }
        claim(entry);
        return undefined;
      },
      remember: (pass, reading) => {
        this.entry(key).readings[pass] = reading;
      },
      settle: () => {
        if (!claimed) return;
        claimed.release?.();
        claimed.pending = undefined;
        claimed = undefined;
      },
    };
  }

  private entry(key: string): Entry<C> {
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else entry = { readings: {} };
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const [oldest, old] = this.entries.entries().next().value!;
      old.release?.();
      this.entries.delete(oldest);
    }
    return entry;
  }
}

const hasReadings = <C>(entry: Entry<C>) => Object.keys(entry.readings).length > 0;

/** Side of the square cells two frames are compared in. */
export const CELL = 16;
/**
 * A cell changed when its pixels moved by more than this many grey levels on average. A digit that changes moves a
 * cell by tens of levels; video compression's ringing around sharp edges moves a few pixels a lot but the cell
 * by one or two.
 */
const CELL_CHANGE = 6;

/** The cells (as boxes) where `next` differs from `previous`, two grey frames of the same size. */
export function changedCells(previous: Buffer, next: Buffer, width: number, height: number): Box[] {
  const cells: Box[] = [];
  for (let top = 0; top < height; top += CELL) {
    for (let left = 0; left < width; left += CELL) {
      const w = Math.min(CELL, width - left);
      const h = Math.min(CELL, height - top);
      let moved = 0;
      for (let y = top; y < top + h; y++) {
        // A plain loop over the row's bytes, without Math.abs: a third faster on a 720p frame.
        for (let i = y * width + left, end = i + w; i < end; i++) {
          const d = previous[i]! - next[i]!;
          moved += d < 0 ? -d : d;
        }
      }
      if (moved > CELL_CHANGE * w * h) cells.push({ left, top, width: w, height: h });
    }
  }
  return cells;
}

/** Whether two boxes share any pixel, `b` grown by `margin` on every side. */
export function touches(a: Box, b: Box, margin = 0): boolean {
  return a.left < b.left + b.width + margin && b.left - margin < a.left + a.width && a.top < b.top + b.height + margin && b.top - margin < a.top + a.height;
}

/** Changed cells this close to each other (pixels) are read in one rectangle. */
const AREA_GAP = 2 * CELL;
/**
 * The margin around changed cells in a rectangle read again (pixels). Tesseract wants a clear border around a line:
 * with 16 pixels it read an 80-pixel `145 kW` as `145 kV`, with 24 or more right.
 */
const AREA_MARGIN = 2 * CELL;

/** Merges boxes that touch (with `margin`) until none do. */
function mergeTouching(boxes: Box[], margin: number): Box[] {
  const merged: Box[] = [];
  for (const box of boxes) {
    let joined = box;
    for (let i = merged.length - 1; i >= 0; i--) {
      if (touches(merged[i]!, joined, margin)) joined = unionBox([joined, merged.splice(i, 1)[0]!]);
    }
    merged.push(joined);
  }
  return merged.length === boxes.length ? merged : mergeTouching(merged, margin);
}

/**
 * The rectangles to read again for a set of changed cells: cells near each other together, each with a margin,
 * grown to hold whole any remembered run of words they touch (a value's new digits are read with the rest of it),
 * and merged where they meet. Several small rectangles, not one around them all: on a dashboard the values that
 * change sit far apart.
 */
export function readingAreas(cells: Box[], runs: Box[], width: number, height: number): Box[] {
  let areas = mergeTouching(cells, AREA_GAP).map((a) => grow(a, AREA_MARGIN, width, height));
  for (;;) {
    const grown = areas.map((a) => unionBox([a, ...runs.filter((r) => touches(a, r)).map((r) => grow(r, 4, width, height))]));
    const next = mergeTouching(grown, 0);
    if (next.length === areas.length && next.every((a, i) => a.left === areas[i]!.left && a.top === areas[i]!.top && a.width === areas[i]!.width && a.height === areas[i]!.height)) return next;
    areas = next;
  }
}

/** `previous` with the pixels of `areas` taken from `next` (two one-byte-a-pixel frames of the same size). */
export function patchPixels(previous: Buffer, next: Buffer, width: number, areas: Box[]): Buffer {
  const out = Buffer.from(previous);
  for (const a of areas) {
    for (let y = a.top; y < a.top + a.height; y++) next.copy(out, y * width + a.left, y * width + a.left, y * width + a.left + a.width);
  }
  return out;
}
