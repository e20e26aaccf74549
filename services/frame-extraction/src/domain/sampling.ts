import { frameCount } from '@frametext/contracts';

export type SamplingMethod = 'fps-filter' | 'seek';

/**
 * Times (ms) of the frames taken from a video: 0, interval, 2 x interval... ceil(duration / interval) of them,
 * but never more than `maxFrames` (what was paid for).
 */
export function sampleTimestampsMs(durationSeconds: number, intervalSeconds: number, maxFrames: number): number[] {
  const count = Math.min(frameCount(durationSeconds, intervalSeconds), maxFrames);
  return Array.from({ length: count }, (_, i) => Math.round(i * intervalSeconds * 1000));
}

/**
 * One decoding pass with the fps filter costs about the length of video it reads; one seek costs about a process
 * start plus half a keyframe interval of decoding, whatever the video's length. So seeking wins once frames are
 * far enough apart (`seekMinIntervalSeconds`, measured: see README), and for a single frame.
 */
export function chooseSamplingMethod(frames: number, intervalSeconds: number, seekMinIntervalSeconds: number): SamplingMethod {
  return frames <= 1 || intervalSeconds >= seekMinIntervalSeconds ? 'seek' : 'fps-filter';
}

/** From this interval up, the pictures no other picture refers to (most B-frames) are not decoded at all. */
export const SKIP_UNREFERENCED_MIN_INTERVAL_SECONDS = 0.5;

/**
 * ffmpeg options for one pass that yields frame n as the first decoded picture at or after n x interval: the first
 * picture of each slot is kept and stamped with the slot's time, and a slot with no picture of its own repeats the
 * one before (a video slower than the interval). Where frames are far apart, pictures that nothing refers to are
 * skipped: a slot then shows the next picture decoded, at most a few frames later, never an earlier one.
 */
export function intervalSampling(intervalSeconds: number): { inputOptions: string[]; videoFilter: string } {
  // A picture a hair before the slot's time (timestamps rounded to the stream's time base) belongs to the slot.
  const slot = (t: string) => `floor(${t}/${intervalSeconds}+0.001)`;
  const first = `isnan(prev_selected_t)+gte(${slot('t')}\\,${slot('prev_selected_t')}+1)`;
  return {
    inputOptions: intervalSeconds >= SKIP_UNREFERENCED_MIN_INTERVAL_SECONDS ? ['-skip_frame', 'noref'] : [],
    videoFilter: `select='${first}',setpts='${slot('T')}*${intervalSeconds}/TB',fps=1000/${Math.round(intervalSeconds * 1000)}:round=up`,
  };
}
