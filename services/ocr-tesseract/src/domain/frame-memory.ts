import type { Box } from './geometry.js';

/**
 * What a worker remembers of an upload's last bare pass: the grey pixels it read and the runs of words it found.
 * On a dashboard, a slide or a caption video most of a frame is what an earlier frame showed; text in a region
 * whose pixels have not changed since is carried over with its boxes instead of being read again.
 */
export interface BareReading<C> {
  width: number;
  height: number;
  /** The grey frame the bare pass read (one byte a pixel). */
  pixels: Buffer;
  candidates: C[];
}

/** One frame's view of its upload's memory (FrameMemories.of). */
export interface MemoryHandle<C> {
  /**
   * The upload's last bare reading. When there is none but another frame is reading one, waits for it; when there
   * is none at all, this frame becomes the one that reads it, and the others wait until it settles.
   */
  previous(): Promise<BareReading<C> | undefined>;
  remember(reading: BareReading<C>): void;
  /** The frame is done (read or failed): frames waiting for its reading go on. */
  settle(): void;
}

interface Entry<C> {
  reading?: BareReading<C>;
  pending?: Promise<void>;
  release?: () => void;
}

/** The last bare reading of each of the most recent uploads a worker read (a few MB each at most). */
export class FrameMemories<C> {
  private readonly entries = new Map<string, Entry<C>>();

  constructor(private readonly max = 16) {}

  of(key: string): MemoryHandle<C> {
    let claimed: Entry<C> | undefined;
    return {
      previous: async () => {
        const entry = this.entry(key);
        if (entry.reading) return entry.reading;
        if (entry.pending) {
          await entry.pending;
          return entry.reading;
        }
        claimed = entry;
        entry.pending = new Promise<void>((resolve) => (entry.release = resolve));
        return undefined;
      },
      remember: (reading) => {
        this.entry(key).reading = reading;
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
    else entry = {};
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const [oldest, old] = this.entries.entries().next().value!;
      old.release?.();
      this.entries.delete(oldest);
    }
    return entry;
  }
}

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
        const row = y * width;
        for (let x = left; x < left + w; x++) moved += Math.abs(previous[row + x]! - next[row + x]!);
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
