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
export const SKIP_UNREFERENCED_MIN_INTERVAL_SECONDS = 1;

/**
 * ffmpeg options for one pass that yields frame n as the picture of n x interval, a slot with no picture of its own
 * repeating the one before (a video slower than the interval, a screen recording that adds pictures only on change).
 * Dense intervals take the picture on screen at the slot's time (the fps filter; `round=up`, or it lands half an
 * interval early). From SKIP_UNREFERENCED_MIN_INTERVAL_SECONDS, pictures that nothing refers to are not decoded,
 * and the picture on screen at a slot's time may be one of them: the fps filter would then give a picture from
 * before it, so the first picture decoded at or after the slot's time is kept instead and stamped with that time.
 */
export function intervalSampling(intervalSeconds: number): { inputOptions: string[]; videoFilter: string } {
  const fps = `fps=1000/${Math.round(intervalSeconds * 1000)}:round=up`;
  if (intervalSeconds < SKIP_UNREFERENCED_MIN_INTERVAL_SECONDS) return { inputOptions: [], videoFilter: fps };
  // A picture a hair before the slot's time (timestamps rounded to the stream's time base) belongs to the slot.
  const slot = (t: string) => `floor(${t}/${intervalSeconds}+0.001)`;
  const first = `isnan(prev_selected_t)+gte(${slot('t')}\\,${slot('prev_selected_t')}+1)`;
  return {
    inputOptions: ['-skip_frame', 'noref'],
    // tpad holds the last picture one interval past the end, or fps would not give the last slot (it waits for a
    // picture after it).
    videoFilter: `select='${first}',setpts='${slot('T')}*${intervalSeconds}/TB',tpad=stop_mode=clone:stop_duration=${intervalSeconds},${fps}`,
  };
}

/** Consecutive slots that one ffmpeg run takes: `first` up to `first + count - 1`. */
export interface SlotRange {
  first: number;
  count: number;
}

/** Slots a range holds at least: each run seeks to its start, which costs up to a keyframe interval of decoding. */
export const MIN_RANGE_SLOTS = 16;

/**
 * The slots cut into at most `runs` consecutive ranges of near-equal size, each decoded by an ffmpeg run of its own
 * side by side: one run's decoding uses about one core, whatever its threads.
 */
export function slotRanges(slots: number, runs: number): SlotRange[] {
  const n = Math.max(1, Math.min(runs, Math.floor(slots / MIN_RANGE_SLOTS)));
  const ranges: SlotRange[] = [];
  for (let i = 0, first = 0; i < n; i++) {
    const count = Math.floor(slots / n) + (i < slots % n ? 1 : 0);
    ranges.push({ first, count });
    first += count;
  }
  return ranges;
}

/**
 * intervalSampling for a run that starts at the slot beginning at `startMs`: it decodes from the keyframe before
 * that time (without dropping what precedes the time: a slot with no picture of its own shows an earlier one),
 * keeps the stream's timestamps, from zero as a run from the start sees them, so the same pictures fall in the same
 * slots, and drops the slots before its own.
 */
export function rangeSampling(intervalSeconds: number, startMs: number): { inputOptions: string[]; videoFilter: string } {
  const whole = intervalSampling(intervalSeconds);
  if (startMs === 0) return whole;
  const firstSlot = (startMs / 1000 - intervalSeconds / 2).toFixed(6);
  return {
    inputOptions: [...whole.inputOptions, '-noaccurate_seek', '-ss', (startMs / 1000).toFixed(6), '-copyts', '-start_at_zero'],
    videoFilter: `${whole.videoFilter},trim=start=${firstSlot}`,
  };
}
