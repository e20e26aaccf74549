import { timestampFromFrameName, type SortPreference } from '@frametext/contracts';
import exifr from 'exifr';
import { frameKeys, putFrame } from '../data/frame-store.js';
import { imageLimits, type ExtractionContext } from './context.js';
import { encodeUploadedImage } from './frame-images.js';
import { nextFrameTime, orderPhotos, strictlyIncreasing, type PhotoEntry } from './photo-order.js';
import type { FrameSink } from './frame-sink.js';
import type { StoredFrame } from './stored-frame.js';

export interface ImagesRequest {
  uploadId: string;
  objectKeys: string[];
  fileNames: string[] | null;
  /** Photos: the browser's last-modified times (ms since the epoch); frames: ms from the video's start. */
  timestamps: number[] | null;
  sortPreference: SortPreference | null;
  maxFrames: number;
}

/** EXIF DateTimeOriginal in ms since the epoch, or null when the image has none. */
async function exifCaptureTime(bytes: Buffer): Promise<number | null> {
  try {
    const tags = (await exifr.parse(bytes, { pick: ['DateTimeOriginal'] })) as { DateTimeOriginal?: unknown } | undefined;
    const t = tags?.DateTimeOriginal;
    return t instanceof Date && !Number.isNaN(t.getTime()) ? t.getTime() : null;
  } catch {
    return null;
  }
}

const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

async function storeImage(ctx: ExtractionContext, uploadId: string, bytes: Buffer, what: string, timestampMs: number): Promise<StoredFrame> {
  await ctx.stopIfDeleted();
  const encoded = await encodeUploadedImage(bytes, what, imageLimits(ctx.config));
  const keys = frameKeys(uploadId, timestampMs, encoded.format);
  await putFrame(ctx.storage, keys, encoded);
  return { timestampMs, ...keys };
}

/**
 * Photos as frames: ordered by name (natural) or by capture time (EXIF, else the browser's last-modified time),
 * stored as OCR reads them (encodeUploadedImage) with thumbnails. A frame's time is ms since the
 * first photo's capture, so object names still start with a zero-padded time. Each goes to `sink` once stored. At
 * most `maxFrames`.
 */
export async function extractPhotoFrames(ctx: ExtractionContext, req: ImagesRequest, sink: FrameSink): Promise<void> {
  const preference = req.sortPreference ?? 'name';
  const entries: PhotoEntry[] = [];
  for (const [index, key] of req.objectKeys.entries()) {
    const fallback = req.timestamps?.[index] ?? null;
    // Ordering by time needs every capture time first; photos are read again below, so only one is in memory.
    const capturedAtMs = preference === 'timestamp' ? ((await exifCaptureTime(await ctx.storage.getBuffer(key))) ?? fallback) : fallback;
    entries.push({ index, name: req.fileNames?.[index] ?? baseName(key), capturedAtMs });
  }
  const ordered = orderPhotos(entries, preference).slice(0, req.maxFrames);
  let origin: number | null = null;
  for (const [position, entry] of ordered.entries()) {
    const bytes = await ctx.storage.getBuffer(req.objectKeys[entry.index]!);
    const capturedAtMs = preference === 'name' ? ((await exifCaptureTime(bytes)) ?? entry.capturedAtMs) : entry.capturedAtMs;
    if (position === 0) origin = capturedAtMs;
    const relative = origin === null || capturedAtMs === null ? null : capturedAtMs - origin;
    const timestampMs = nextFrameTime(sink.frames.at(-1)?.timestampMs ?? null, relative);
    await sink.add(await storeImage(ctx, req.uploadId, bytes, `Photo ${position + 1} (${entry.name})`, timestampMs));
  }
}

/**
 * Frames the browser cut from a video: each checked and re-encoded as JPEG (a browser can send anything), in
 * time order, at the times the event carries (else the time their names start with). Each goes to `sink` once
 * stored. At most `maxFrames`.
 */
export async function extractBrowserFrames(ctx: ExtractionContext, req: ImagesRequest, sink: FrameSink): Promise<void> {
  const entries = req.objectKeys
    .map((key, index) => ({ key, index, wantedMs: req.timestamps?.[index] ?? timestampFromFrameName(key) ?? index * 1000 }))
    .sort((a, b) => a.wantedMs - b.wantedMs || a.index - b.index)
    .slice(0, req.maxFrames);
  const times = strictlyIncreasing(entries.map((e) => e.wantedMs));
  for (const [position, entry] of entries.entries()) {
    const bytes = await ctx.storage.getBuffer(entry.key);
    await sink.add(await storeImage(ctx, req.uploadId, bytes, `Frame ${position + 1} (at ${(times[position]! / 1000).toFixed(2)} s)`, times[position]!));
  }
}
