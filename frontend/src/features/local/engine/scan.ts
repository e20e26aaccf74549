import { wantsMaskPass } from '@frametext/text-analysis';
import type { LocalFrame } from '../../../lib/localRecords';
import { FrameCutter, waitForFirstFrame, type CapturedFrame, type MissedFrame } from './frames';
import type { OcrPool } from './ocrPool';

/** A frame of a scan: as saved, plus why it is empty when the video could not be moved to its time. */
export interface ScannedFrame extends LocalFrame {
  missed?: string;
}

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
  onFrame?: (frame: ScannedFrame, index: number) => void;
  signal?: AbortSignal;
}

/**
 * Reads the video at `times`: cuts a batch of 3 frames (seeking one after the other, as one video can only show one
 * frame at a time), reads them in parallel on the pool, and goes on with the next batch. A frame the video cannot
 * be moved to is kept empty, with the reason, rather than read from whatever the video shows.
 */
export async function scanVideo(o: ScanOptions): Promise<ScannedFrame[]> {
  await waitForFirstFrame(o.video);
  // Playing would move the video between a seek and its drawing.
  o.video!.pause();
  const cutter = new FrameCutter(o.video!, o.scale);
  const frames: ScannedFrame[] = [];
  let done = 0;
  for (let start = 0; start < o.times.length; start += BATCH_SIZE) {
    const batch = [];
    for (const t of o.times.slice(start, start + BATCH_SIZE)) {
      o.signal?.throwIfAborted();
      batch.push(await cutter.cut(t));
    }
    const read = await Promise.all(
      batch.map(async (captured, i) => {
        const frame = 'missed' in captured ? missedFrame(captured) : await readFrame(o.pool, captured);
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

/** A frame the video could not be moved to: empty, with the reason. */
const missedFrame = (m: MissedFrame): ScannedFrame => ({ t: m.t, text: '', words: [], missed: m.missed });

/** Reads one cut frame on the pool. */
async function readFrame(pool: OcrPool, captured: CapturedFrame): Promise<ScannedFrame> {
  // The white-mask pass as the Basic engine decides it (auto): a little near-white over a picture.
  const mask = wantsMaskPass('auto', captured.whiteShare, 'numerical') ? captured.mask : undefined;
  const reading = await pool.read({ grey: captured.pgm, mask }, captured.width, captured.height);
  return { t: captured.t, text: reading.text, words: reading.words, thumb: captured.thumb, ocrW: captured.width, ocrH: captured.height };
}
