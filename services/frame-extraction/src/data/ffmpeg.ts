import { spawn } from 'node:child_process';
import ffmpeg from 'fluent-ffmpeg';
import { PpmFrameSplitter, type RawFrame } from './ppm-frames.js';

export class FfmpegTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`ffmpeg ran past its ${timeoutMs} ms timeout and was killed`);
    this.name = 'FfmpegTimeoutError';
  }
}

/** ffmpeg or ffprobe could not read the input (its last error lines are in the message, for the logs). */
export class FfmpegReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FfmpegReadError';
  }
}

export interface VideoProbe {
  durationSeconds: number;
  /** The first real video stream (cover art of audio files does not count), or null. */
  video: { width: number; height: number; codec: string } | null;
}

interface ProbeJson {
  format?: { duration?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string; disposition?: { attached_pic?: number } }[];
}

/** ffprobe's view of a file: duration and video stream. Killed after `timeoutMs`. */
export function probeVideo(path: string, timeoutMs: number): Promise<VideoProbe> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
      reject(new FfmpegTimeoutError(timeoutMs));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`ffprobe could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return;
      if (code !== 0) return reject(new FfmpegReadError(`ffprobe exited with ${code}: ${stderr.trim()}`));
      let json: ProbeJson;
      try {
        json = JSON.parse(stdout) as ProbeJson;
      } catch {
        return reject(new FfmpegReadError('ffprobe printed no readable description'));
      }
      const stream = json.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
      const duration = Number(json.format?.duration ?? stream?.duration ?? 0);
      resolve({
        durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : 0,
        video: stream && stream.width && stream.height ? { width: stream.width, height: stream.height, codec: stream.codec_name ?? 'unknown' } : null,
      });
    });
  });
}

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
