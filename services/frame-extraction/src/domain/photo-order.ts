import type { SortPreference } from '@frametext/contracts';

export interface PhotoEntry {
  /** Position in the upload's objectKeys. */
  index: number;
  name: string;
  /** Capture time, ms since the epoch (EXIF, else the browser's last-modified time), or null when unknown. */
  capturedAtMs: number | null;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural, case-insensitive name order: "img2" before "IMG10". */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b);
}

/** Orders photos by name or by capture time (unknown times last); ties keep the upload's order. */
export function orderPhotos(photos: PhotoEntry[], preference: SortPreference): PhotoEntry[] {
  const byTime = (a: PhotoEntry, b: PhotoEntry) => (a.capturedAtMs ?? Infinity) - (b.capturedAtMs ?? Infinity) || 0;
  const primary = preference === 'timestamp' ? byTime : (a: PhotoEntry, b: PhotoEntry) => compareNames(a.name, b.name);
  return [...photos].sort((a, b) => primary(a, b) || a.index - b.index);
}

/**
 * The next frame time, usable as an object name: whole ms, never below 0, and after the previous one (two photos
 * taken in the same second, or out of time order in name order, still get distinct names sorted like the frames).
 */
export function nextFrameTime(previous: number | null, wantedMs: number | null): number {
  const floor = previous === null ? 0 : previous + 1;
  return Math.max(floor, Math.round(wantedMs ?? 0));
}

/** Applies {@link nextFrameTime} along a list of wanted times. */
export function strictlyIncreasing(timesMs: (number | null)[]): number[] {
  const out: number[] = [];
  for (const t of timesMs) out.push(nextFrameTime(out.length === 0 ? null : out[out.length - 1]!, t));
  return out;
}

/** Frame times of ordered photos: ms since the first photo's capture time (0 for the first). */
export function photoFrameTimes(ordered: Pick<PhotoEntry, 'capturedAtMs'>[]): number[] {
  const origin = ordered[0]?.capturedAtMs ?? null;
  return strictlyIncreasing(ordered.map((p) => (origin === null || p.capturedAtMs === null ? null : p.capturedAtMs - origin)));
}
