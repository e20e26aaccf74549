import { spawn } from 'node:child_process';

/*
 * ffprobe, as every service that checks a video runs it: frame-extraction before it decodes an upload, and upload
 * on a video it fetched by link.
 */

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
