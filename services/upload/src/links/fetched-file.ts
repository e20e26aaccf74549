import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { FfmpegReadError, FfmpegTimeoutError, probeVideo } from '@frametext/service-kit';
import { movieMimeType, SNIFF_BYTES, sniffMedia } from '../domain/media-sniff.js';
import { linkFailures, type LinkFailure } from './fetch-failure.js';

/*
 * The checks a fetched file gets before it is stored: where it was written, its size, its first bytes (the MP4 or MOV
 * signature uploadComplete checks), and ffprobe (a picture, and the length: the duration that decides the frames and
 * the credits is measured here, never taken from the client or the site).
 */

const PROBE_TIMEOUT_MS = 60_000;

export interface FetchedVideo {
  path: string;
  bytes: number;
  durationSeconds: number;
  mimeType: 'video/mp4' | 'video/quicktime';
  extension: 'mp4' | 'mov';
}

export interface FetchCaps {
  maxBytes: number;
  maxSeconds: number;
  /** What the duration cap is, for the sentence: "a video by link may last", "an upload reads at one frame every 5 s". */
  maxSecondsWhy: string;
}

async function head(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function checkFetchedFile(file: string, dir: string, caps: FetchCaps): Promise<FetchedVideo | LinkFailure> {
  const real = await realpath(file).catch(() => undefined);
  const inside = real !== undefined && real.startsWith((await realpath(dir)) + path.sep);
  if (!inside) return linkFailures.notAVideo('no file was written');
  const { size } = await stat(real);
  if (size === 0) return linkFailures.notAVideo('the file is empty');
  if (size > caps.maxBytes) return linkFailures.tooBig(caps.maxBytes);
  const first = await head(real);
  if (sniffMedia(first) !== 'iso-bmff') return linkFailures.notAVideo('the file is not MP4 or MOV');
  let probe;
  try {
    probe = await probeVideo(real, PROBE_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof FfmpegReadError || err instanceof FfmpegTimeoutError) return linkFailures.notAVideo('the file cannot be read as a video');
    throw err;
  }
  if (!probe.video || probe.durationSeconds <= 0) return linkFailures.notAVideo('the file has no picture to read');
  if (probe.durationSeconds > caps.maxSeconds) return linkFailures.tooLong(probe.durationSeconds, caps.maxSeconds, caps.maxSecondsWhy);
  const mimeType = movieMimeType(first);
  return { path: real, bytes: size, durationSeconds: probe.durationSeconds, mimeType, extension: mimeType === 'video/quicktime' ? 'mov' : 'mp4' };
}

export const isFailure = (x: FetchedVideo | LinkFailure): x is LinkFailure => 'code' in x;
