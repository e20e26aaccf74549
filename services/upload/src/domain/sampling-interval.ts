import { FRAME_INTERVALS, MAX_FRAMES, frameCount } from '@frametext/contracts';

/** Seconds between frames when the video allows: one a second, as Google's text detection is usually read. */
const PREFERRED_INTERVAL = 1;

/**
 * The interval POST /v1/videos:annotate reads a video at (it names none): the shortest of the upload page's, from one
 * a second on, that keeps the video within MAX_FRAMES.
 */
export function samplingInterval(durationSeconds: number): number {
  const fits = FRAME_INTERVALS.find((s) => s >= PREFERRED_INTERVAL && frameCount(durationSeconds, s) <= MAX_FRAMES);
  return fits ?? FRAME_INTERVALS.at(-1)!;
}
