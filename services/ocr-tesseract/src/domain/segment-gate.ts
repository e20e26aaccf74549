/**
 * Frames of an upload the segment reader must have looked at before it judges whether the upload shows any (frames
 * asked about while those are still being read are looked at too: an upload's frames are read several at once).
 */
export const SEGMENT_FIRST_FRAMES = 4;
/** In an upload where it found none, it looks again at one frame in this many (a display may come into view). */
export const SEGMENT_RECHECK_EVERY = 20;

/**
 * Whether the seven-segment reader is worth its 20-50 ms on an upload's next frame: on its first frames, yes; after
 * them, only if some frame of it showed segment digits, and otherwise on one frame in SEGMENT_RECHECK_EVERY. A
 * video of a charger screen or a talk stops paying for it after a few frames. Remembers the last `max` uploads.
 */
export class SegmentGate {
  private readonly uploads = new Map<string, { asked: number; judged: number; found: boolean }>();

  constructor(private readonly max = 64) {}

  wants(uploadId: string): boolean {
    const seen = this.uploads.get(uploadId) ?? { asked: 0, judged: 0, found: false };
    this.uploads.delete(uploadId);
    this.uploads.set(uploadId, seen);
    while (this.uploads.size > this.max) this.uploads.delete(this.uploads.keys().next().value!);
    seen.asked++;
    return seen.found || seen.judged < SEGMENT_FIRST_FRAMES || seen.asked % SEGMENT_RECHECK_EVERY === 0;
  }

  /** What the reader found on a frame of the upload. */
  saw(uploadId: string, values: number): void {
    const seen = this.uploads.get(uploadId);
    if (!seen) return;
    seen.judged++;
    if (values > 0) seen.found = true;
  }
}
