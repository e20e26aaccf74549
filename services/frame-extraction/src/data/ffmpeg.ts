import ffmpeg from 'fluent-ffmpeg';
import { FfmpegReadError, FfmpegTimeoutError } from '@frametext/service-kit';
import { PpmFrameSplitter, type RawFrame } from './ppm-frames.js';

// ffprobe and the errors of both tools live in the kit (upload probes videos fetched by link the same way).
export { FfmpegReadError, FfmpegTimeoutError, probeVideo, type VideoProbe } from '@frametext/service-kit';

export interface FrameRunOptions {
  path: string;
  /** Placed before `-i` (for example `-ss 12.5` for input seeking). */
  inputOptions?: string[];
  /** A `-vf` filter graph (for example `fps=1/5:round=up`). */
  videoFilter?: string;
  /** ffmpeg stops by itself after this many frames. */
  maxFrames: number;
  timeoutMs: number;
  /** Decoder threads (ffmpeg's own default follows the node's cores, not the CPU quota). */
  threads: number;
}

/**
 * Decodes frames with one ffmpeg process and yields them as they come out of its stdout (PPM through
 * image2pipe: no temporary files). Stopping the iteration early kills the process. Throws FfmpegTimeoutError
 * when the run takes longer than `timeoutMs`, FfmpegReadError when ffmpeg fails.
 */
export async function* decodeFrames(o: FrameRunOptions): AsyncGenerator<RawFrame> {
  const splitter = new PpmFrameSplitter();
  let timedOut = false;
  let finished = false;
  const command = ffmpeg(o.path)
    .inputOptions(['-threads', String(o.threads), ...(o.inputOptions ?? [])])
    .outputOptions([...(o.videoFilter ? ['-vf', o.videoFilter] : []), '-frames:v', String(o.maxFrames), '-an', '-sn', '-dn'])
    .format('image2pipe')
    .videoCodec('ppm');
  const exited = new Promise<void>((resolve, reject) => {
    command.on('end', () => resolve());
    command.on('error', (err: Error, _stdout: string | null, stderr: string | null) => {
      const failure = timedOut ? new FfmpegTimeoutError(o.timeoutMs) : new FfmpegReadError(`${err.message}: ${(stderr ?? '').trim().slice(-1000)}`);
      splitter.destroy(failure);
      reject(failure);
    });
  });
  exited.catch(() => undefined);
  // fluent-ffmpeg spawns the process asynchronously: a timeout that fires before it exists kills it on start.
  command.on('start', () => {
    if (timedOut) command.kill('SIGKILL');
  });
  const timer = setTimeout(() => {
    timedOut = true;
    command.kill('SIGKILL');
    // The frames end here, whether or not ffmpeg had started and whatever fluent-ffmpeg reports of its end.
    splitter.destroy(new FfmpegTimeoutError(o.timeoutMs));
  }, o.timeoutMs);
  try {
    command.pipe(splitter, { end: true });
    for await (const frame of splitter) {
      if (timedOut) throw new FfmpegTimeoutError(o.timeoutMs);
      yield frame as RawFrame;
    }
    if (timedOut) throw new FfmpegTimeoutError(o.timeoutMs);
    await exited;
    finished = true;
  } finally {
    clearTimeout(timer);
    if (!finished) {
      try {
        command.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/** The frame shown at `seconds`, by input seeking (decodes from the keyframe before it only), or null past the end. */
export async function frameAt(path: string, seconds: number, run: { timeoutMs: number; threads: number }): Promise<RawFrame | null> {
  for await (const frame of decodeFrames({ path, inputOptions: ['-ss', seconds.toFixed(3)], maxFrames: 1, ...run })) return frame;
  return null;
}
