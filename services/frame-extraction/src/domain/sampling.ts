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
