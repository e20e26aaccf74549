import { wantsMaskPass } from '@frametext/text-analysis';
import type { LocalFrame } from '../../../lib/localRecords';
import { FrameCutter, waitForFirstFrame } from './frames';
import type { OcrPool } from './ocrPool';

/** The spec: frames are cut and read in batches of 3. */
export const BATCH_SIZE = 3;

export interface ScanOptions {
  video: HTMLVideoElement | null;
  /** Seconds of the frames to read, in order. */
  times: readonly number[];
  /** Downscale, 0.8 to 1. */
  scale: number;
  pool: OcrPool;
  /** After every frame read: how many are done. */
  onProgress?: (done: number, total: number) => void;
  /** Each frame as soon as it is read. */
  onFrame?: (frame: LocalFrame, index: number) => void;
  signal?: AbortSignal;
}

/**
 * Reads the video at `times`: cuts a batch of 3 frames (seeking one after the other, as one video can only show one
 * frame at a time), reads them in parallel on the pool, and goes on with the next batch.
 */
export async function scanVideo(o: ScanOptions): Promise<LocalFrame[]> {
  await waitForFirstFrame(o.video);
  const cutter = new FrameCutter(o.video!, o.scale);
  const frames: LocalFrame[] = [];
  let done = 0;
  for (let start = 0; start < o.times.length; start += BATCH_SIZE) {
    const batch = [];
    for (const t of o.times.slice(start, start + BATCH_SIZE)) {
      o.signal?.throwIfAborted();
      batch.push(await cutter.cut(t));
    }
    const read = await Promise.all(
      batch.map(async (captured, i) => {
        // The white-mask pass as the Basic engine decides it (auto): a little near-white over a picture.
        const mask = wantsMaskPass('auto', captured.whiteShare, 'numerical') ? captured.mask : undefined;
        const reading = await o.pool.read({ grey: captured.pgm, mask }, captured.width, captured.height);
        const frame: LocalFrame = { t: captured.t, text: reading.text, words: reading.words, thumb: captured.thumb, ocrW: captured.width, ocrH: captured.height };
        done += 1;
        o.onFrame?.(frame, start + i);
        o.onProgress?.(done, o.times.length);
        return frame;
      }),
    );
    o.signal?.throwIfAborted();
    frames.push(...read);
  }
  return frames;
}
