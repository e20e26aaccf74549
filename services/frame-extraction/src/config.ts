import { z } from 'zod';
import { servicePort } from '@frametext/contracts';
import { loadConfigOrExit, serviceConfig, workerConfigShape } from '@frametext/service-kit';

export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('frame-extraction')),
  /** Each message is a whole upload's decoding (ffmpeg, no database connection held meanwhile): a few at a time. */
  BUS_PREFETCH: z.coerce.number().int().min(1).max(1000).default(2),
  ...workerConfigShape,
  /** An ffmpeg or ffprobe run longer than this is killed and the upload fails as unreadable. */
  FFMPEG_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
  /** ffmpeg processes at once when frames are taken one seek at a time. */
  FFMPEG_SEEK_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /**
   * From this interval (seconds between frames) up, frames are taken by input seeking (one short ffmpeg run per
   * frame) instead of one decoding pass with the fps filter. Chosen by measurement: see README.
   */
  SEEK_MIN_INTERVAL_SECONDS: z.coerce.number().positive().default(10),
  /** Longest side accepted for a video or image, in pixels (refused before any decoding). */
  MAX_MEDIA_DIMENSION: z.coerce.number().int().min(64).default(16_384),
  /** sharp's decompression-bomb guard: images with more pixels are refused. */
  MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(268_402_689),
  FRAME_JPEG_QUALITY: z.coerce.number().int().min(1).max(100).default(85),
  THUMBNAIL_WIDTH: z.coerce.number().int().min(16).max(2048).default(320),
  /** Where source videos are copied for ffmpeg (it needs a seekable file); defaults to the system's temp folder. */
  WORK_DIR: z.string().optional(),
  /**
   * Bytes WORK_DIR keeps free beside a source copy (ffmpeg's own temporary files, the filesystem's slack). A video that
   * does not fit fails at once with the reason, instead of filling the disk. Size WORK_DIR for BUS_PREFETCH of the
   * largest uploads (k8s/base gives frame-extraction 11 GiB: two 5 GiB videos).
   */
  SCRATCH_RESERVE_BYTES: z.coerce.number().int().min(0).default(64 * 1024 * 1024),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfigOrExit('frame-extraction', configSchema, env);
}
