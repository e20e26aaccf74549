import { SLIDE_SAMPLE_SECONDS, frameCount } from '@frametext/contracts';
import { FfmpegReadError, FfmpegTimeoutError, decodeFrames, frameAt, probeVideo, type VideoProbe } from '../data/ffmpeg.js';
import { frameKeys, putFrame } from '../data/frame-store.js';
import type { RawFrame } from '../data/ppm-frames.js';
import { withLocalCopy } from '../data/source-file.js';
import { imageLimits, mapLimit, type ExtractionContext } from './context.js';
import { encodeRawFrame, greySample } from './frame-images.js';
import type { FrameSink } from './frame-sink.js';
import { MediaError } from './media-error.js';
import { chooseSamplingMethod, intervalSampling, rangeSampling, sampleTimestampsMs, slotRanges, type SlotRange } from './sampling.js';
import { SlideDetector } from './slide-diff.js';
import type { StoredFrame } from './stored-frame.js';

export interface VideoRequest {
  uploadId: string;
  sourceKey: string;
  intervalSeconds: number;
  /** Presentation mode with slide detection: one frame per slide instead of one per interval. */
  slideDetection: boolean;
  maxFrames: number;
  clientDurationSeconds: number | null;
}


/** Turns ffmpeg's failures into reasons a person can read; anything else is ours and is rethrown. */
async function readable<T>(ctx: ExtractionContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof FfmpegTimeoutError) {
      throw new MediaError(`The video could not be read: decoding it took longer than ${Math.round(ctx.config.FFMPEG_TIMEOUT_MS / 1000)} seconds.`, { cause: err });
    }
    if (err instanceof FfmpegReadError) {
      ctx.log.warn({ err: err.message }, 'ffmpeg could not read the video');
      throw new MediaError('The video could not be read: the file is damaged or is not a video.', { cause: err });
    }
    throw err;
  }
}

function checkProbe(ctx: ExtractionContext, probe: VideoProbe, req: VideoRequest): { durationSeconds: number } {
  if (!probe.video) throw new MediaError('The video could not be read: it has no video track.');
  const { width, height } = probe.video;
  const max = ctx.config.MAX_MEDIA_DIMENSION;
  if (width > max || height > max) throw new MediaError(`The video is too large to process (${width} x ${height} pixels); videos may be at most ${max} pixels a side.`);
  if (!(probe.durationSeconds > 0)) throw new MediaError('The video could not be read: it has no length (0 seconds).');
  if (req.clientDurationSeconds !== null && Math.abs(req.clientDurationSeconds - probe.durationSeconds) > 1) {
    ctx.log.warn({ clientSeconds: req.clientDurationSeconds, probedSeconds: probe.durationSeconds }, 'the client gave a wrong duration; using ffprobe\'s');
  }
  return { durationSeconds: probe.durationSeconds };
}

/**
 * Frames of an uploaded video: ffprobe first (its duration, not the client's, decides the frame times), then
 * frames at the interval (by the fps filter or by seeking, whichever costs less) or one per slide, each stored
 * as a JPEG with a thumbnail and handed to `sink` in time order. At most `maxFrames`. Answers ffprobe's duration.
 */
export async function extractVideoFrames(ctx: ExtractionContext, req: VideoRequest, sink: FrameSink): Promise<number> {
  return withLocalCopy(ctx.storage, req.sourceKey, { workDir: ctx.config.WORK_DIR, reserveBytes: ctx.config.SCRATCH_RESERVE_BYTES }, async (path, size) => {
    if (size === 0) throw new MediaError('The video could not be read: the file is empty.');
    const probe = await readable(ctx, () => probeVideo(path, ctx.config.FFMPEG_TIMEOUT_MS));
    const { durationSeconds } = checkProbe(ctx, probe, req);
    const limits = imageLimits(ctx.config);
    const store = async (frame: RawFrame, timestampMs: number): Promise<StoredFrame> => {
      // A deleted upload's decoding stops here: the throw ends ffmpeg (decodeFrames kills it when left early).
      await ctx.stopIfDeleted();
      const encoded = await encodeRawFrame(frame, limits);
      const keys = frameKeys(req.uploadId, timestampMs, encoded.format);
      await putFrame(ctx.storage, keys, encoded);
      return { timestampMs, ...keys };
    };
    await readable(ctx, () => (req.slideDetection ? slides(ctx, path, durationSeconds, req.maxFrames, store, sink) : atInterval(ctx, path, durationSeconds, req, store, sink)));
    if (sink.frames.length === 0) throw new MediaError('The video could not be read: no picture could be decoded from it.');
    return durationSeconds;
  });
}

type Store = (frame: RawFrame, timestampMs: number) => Promise<StoredFrame>;

/** How every ffmpeg run of an upload is bounded: its timeout and its decoder threads. */
const ffmpegRun = (ctx: ExtractionContext) => ({ timeoutMs: ctx.config.FFMPEG_TIMEOUT_MS, threads: ctx.config.WORKER_THREADS });

async function atInterval(ctx: ExtractionContext, path: string, durationSeconds: number, req: VideoRequest, store: Store, sink: FrameSink): Promise<void> {
  const times = sampleTimestampsMs(durationSeconds, req.intervalSeconds, req.maxFrames);
  const method = chooseSamplingMethod(times.length, req.intervalSeconds, ctx.config.SEEK_MIN_INTERVAL_SECONDS);
  ctx.log.info({ frames: times.length, durationSeconds, intervalSeconds: req.intervalSeconds, method }, 'extracting frames');
  const run = ffmpegRun(ctx);
  if (method === 'seek') {
    const stored = await mapLimit(times, ctx.config.FFMPEG_SEEK_CONCURRENCY, async (ms) => {
      // The last slot can fall on the very end, past the last decodable frame: take the last moment instead.
      const seconds = Math.min(ms / 1000, Math.max(0, durationSeconds - 0.5));
      const frame = await frameAt(path, seconds, run);
      return frame ? store(frame, ms) : null;
    });
    // Seeks finish in any order; a frame's place is known once those before it are in.
    for (const frame of stored) if (frame) await sink.add(frame);
    return;
  }
  const ranges = slotRanges(times.length, run.threads);
  const threads = Math.max(1, Math.floor(run.threads / ranges.length));
  const inOrder = new InOrder(ranges.length, (frame) => sink.add(frame));
  let failed = false;
  const decodeRange = async ({ first, count }: SlotRange, index: number) => {
    try {
      let taken = 0;
      for await (const frame of decodeFrames({ path, ...rangeSampling(req.intervalSeconds, times[first]!), maxFrames: count, timeoutMs: run.timeoutMs, threads })) {
        if (failed) break;
        await inOrder.add(index, await store(frame, times[first + taken]!));
        if (++taken === count) break;
      }
      await inOrder.end(index);
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  const outcomes = await Promise.allSettled(ranges.map(decodeRange));
  const failure = outcomes.find((o) => o.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * Hands on the frames of ranges decoded side by side in the ranges' order: a range's frames go on as they come
 * while the ranges before it have ended, and wait for them otherwise.
 */
class InOrder {
  private readonly held: StoredFrame[][];
  private readonly ended: boolean[];
  private turn = 0;
  private handing = Promise.resolve();

  constructor(ranges: number, private readonly handOn: (frame: StoredFrame) => Promise<void>) {
    this.held = Array.from({ length: ranges }, () => []);
    this.ended = new Array<boolean>(ranges).fill(false);
  }

  add(range: number, frame: StoredFrame): Promise<void> {
    this.held[range]!.push(frame);
    return this.handReady();
  }

  end(range: number): Promise<void> {
    this.ended[range] = true;
    return this.handReady();
  }

  private handReady(): Promise<void> {
    this.handing = this.handing.then(async () => {
      for (; this.turn < this.held.length; this.turn++) {
        const frames = this.held[this.turn]!;
        while (frames.length > 0) await this.handOn(frames.shift()!);
        if (!this.ended[this.turn]) return;
      }
    });
    return this.handing;
  }
}

async function slides(ctx: ExtractionContext, path: string, durationSeconds: number, maxFrames: number, store: Store, sink: FrameSink): Promise<void> {
  const samples = frameCount(durationSeconds, SLIDE_SAMPLE_SECONDS);
  ctx.log.info({ samples, durationSeconds, maxFrames }, 'detecting slides');
  const detector = new SlideDetector();
  const limits = imageLimits(ctx.config);
  let index = 0;
  for await (const frame of decodeFrames({ path, ...intervalSampling(SLIDE_SAMPLE_SECONDS), maxFrames: samples, ...ffmpegRun(ctx) })) {
    const timestampMs = index * SLIDE_SAMPLE_SECONDS * 1000;
    index++;
    if (detector.isNewSlide(await greySample(frame, limits))) await sink.add(await store(frame, timestampMs));
    if (sink.frames.length >= maxFrames) break;
  }
}

