import { WHITE_THRESHOLD } from '@frametext/text-analysis';
import { seekToFrame } from './seek';

/*
 * Frames cut from a <video> in the page: seek (checked: ./seek.ts), draw into a canvas at the chosen scale, and take
 * what the Basic engine gives Tesseract too: the frame in grey and its white mask (black where every channel is
 * near-white, white elsewhere, despeckled by a 3x3 median), both as PGM, plus a JPEG thumbnail. Each step is a short
 * task, so the page stays responsive; the heavy work (recognition) happens in the OCR workers.
 */

/** The spec's timeout for the first frame: 5 s (seeks: ./seek.ts). */
export const FIRST_FRAME_TIMEOUT_MS = 5_000;
/** The spec: JPEG thumbnails at quality 0.7. Wider frames are shrunk to this width for the thumbnail only. */
export const THUMB_QUALITY = 0.7;
export const THUMB_MAX_WIDTH = 1280;

export const NO_VIDEO = 'No video element.';
export const NO_DIMENSIONS = 'Video has no dimensions.';

export interface CapturedFrame {
  t: number;
  width: number;
  height: number;
  /** The frame in grey as binary PGM. */
  pgm: Uint8Array;
  /** Its white mask as binary PGM. */
  mask: Uint8Array;
  /** Share of the frame's pixels that are near-white (0..1): whether the mask is worth reading. */
  whiteShare: number;
  /** JPEG data URL. */
  thumb: string;
}

/** A frame the video could not be moved to: its time and why. Nothing is drawn for it. */
export interface MissedFrame {
  t: number;
  missed: string;
}

function withTimeout<T>(ms: number, message: string, start: (resolve: (v: T) => void, reject: (e: Error) => void) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      reject(new Error(message));
    }, ms);
    stop = start(
      (v) => {
        clearTimeout(timer);
        stop();
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        stop();
        reject(e);
      },
    );
  });
}

/** Resolves once the video can show its first frame; 5 s at most. */
export function waitForFirstFrame(video: HTMLVideoElement | null): Promise<void> {
  if (!video) return Promise.reject(new Error(NO_VIDEO));
  if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return Promise.resolve();
  return withTimeout(FIRST_FRAME_TIMEOUT_MS, 'The video did not show its first frame within 5 seconds.', (resolve, reject) => {
    const onData = () => resolve(undefined);
    const onError = () => reject(new Error('This browser cannot play this video.'));
    video.addEventListener('loadeddata', onData);
    video.addEventListener('error', onError);
    return () => {
      video.removeEventListener('loadeddata', onData);
      video.removeEventListener('error', onError);
    };
  });
}

/** The size frames are read at: the video's own, times the downscale (0.8 to 1). */
export function scaledSize(video: HTMLVideoElement | null, scale: number): { width: number; height: number } {
  if (!video) throw new Error(NO_VIDEO);
  if (!video.videoWidth || !video.videoHeight) throw new Error(NO_DIMENSIONS);
  return { width: Math.max(1, Math.round(video.videoWidth * scale)), height: Math.max(1, Math.round(video.videoHeight * scale)) };
}

const pgmHeader = (width: number, height: number) => new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);

/**
 * From RGBA pixels: the grey frame (the luma weights the server uses) and the white mask, as binary PGM, and the
 * share of near-white pixels. The mask is cleaned as the server cleans it: a 3x3 median, which on a black-and-white
 * image keeps a pixel black when at least 5 of the 9 around it are (edges repeat their border pixels).
 */
export function toPgms(rgba: Uint8ClampedArray, width: number, height: number): { grey: Uint8Array; mask: Uint8Array; whiteShare: number } {
  const header = pgmHeader(width, height);
  const n = width * height;
  const grey = new Uint8Array(header.length + n);
  grey.set(header);
  const white = new Uint8Array(n);
  let whites = 0;
  for (let p = 0, i = 0, o = header.length; p < n; p++, i += 4, o++) {
    const r = rgba[i]!;
    const g = rgba[i + 1]!;
    const b = rgba[i + 2]!;
    grey[o] = (r * 54 + g * 183 + b * 19) >> 8;
    if (r >= WHITE_THRESHOLD && g >= WHITE_THRESHOLD && b >= WHITE_THRESHOLD) {
      white[p] = 1;
      whites++;
    }
  }
  // Column sums of three rows, then row sums of three columns: the count of near-white pixels around each pixel.
  const vertical = new Uint8Array(n);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) vertical[row + x] = white[up + x]! + white[row + x]! + white[down + x]!;
  }
  const mask = new Uint8Array(header.length + n);
  mask.set(header);
  for (let y = 0, o = header.length; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++, o++) {
      const count = vertical[row + Math.max(0, x - 1)]! + vertical[row + x]! + vertical[row + Math.min(width - 1, x + 1)]!;
      mask[o] = count >= 5 ? 0 : 255;
    }
  }
  return { grey, mask, whiteShare: n > 0 ? whites / n : 0 };
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The thumbnail could not be read.'));
    reader.readAsDataURL(blob);
  });
}

function jpeg(canvas: HTMLCanvasElement): Promise<string> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blobToDataUrl(blob)) : reject(new Error('The frame could not be encoded.'))), 'image/jpeg', THUMB_QUALITY);
  });
}

/** Cuts frames from one video; reuses its canvases from frame to frame. */
export class FrameCutter {
  private readonly canvas = document.createElement('canvas');
  private readonly thumbCanvas = document.createElement('canvas');

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly scale: number,
  ) {}

  /** The frame at `t`, or why it could not be reached (never the frame shown before). */
  async cut(t: number): Promise<CapturedFrame | MissedFrame> {
    const { video } = this;
    const missed = await seekToFrame(video, t);
    if (missed !== null) return { t, missed };
    const { width, height } = scaledSize(video, this.scale);
    const canvas = this.canvas;
    if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('This browser cannot draw video frames.');
    ctx.drawImage(video, 0, 0, width, height);
    const pixels = ctx.getImageData(0, 0, width, height).data;
    // Its own task: the page can paint and answer between the readback and the pixel loops.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { grey, mask, whiteShare } = toPgms(pixels, width, height);
    let thumbSource = canvas;
    if (width > THUMB_MAX_WIDTH) {
      const thumb = this.thumbCanvas;
      Object.assign(thumb, { width: THUMB_MAX_WIDTH, height: Math.round((height * THUMB_MAX_WIDTH) / width) });
      thumb.getContext('2d')?.drawImage(canvas, 0, 0, thumb.width, thumb.height);
      thumbSource = thumb;
    }
    return { t, width, height, pgm: grey, mask, whiteShare, thumb: await jpeg(thumbSource) };
  }
}
