import { z } from 'zod';
import { servicePort } from '@frametext/contracts';
import { loadConfigOrExit, serviceConfig, workerConfigShape } from '@frametext/service-kit';

/** The most images one Vision request may carry (the API's limit). */
export const VISION_MAX_IMAGES_PER_REQUEST = 16;

/**
 * ocr-cloud settings; every key has a default (or is optional) and is read from the environment variable of the
 * same name. Google credentials are found the usual Google ways (below); without any, the worker stays off.
 * BUS_PREFETCH (shared setting) defaults to two full Vision requests' worth of frames here.
 */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('ocr-cloud')),
  BUS_PREFETCH: z.coerce.number().int().min(1).max(1000).optional(),
  ...workerConfigShape,
  /**
   * Path of a Google service-account key file (JSON). Unset: Application Default Credentials (gcloud's
   * application_default_credentials.json, or the metadata server on Google Cloud). None found: Cloud AI is off.
   */
  GOOGLE_APPLICATION_CREDENTIALS: z.string().min(1).optional(),
  /** Where the Cloud Vision API answers (tests point it at a local fake). */
  VISION_API_URL: z.string().url().default('https://vision.googleapis.com'),
  /** Where the Cloud Translation API (v2) answers, for captions with a target language. */
  TRANSLATE_API_URL: z.string().url().default('https://translation.googleapis.com'),
  /** Frames sent in one Vision request (at most the API's 16). */
  VISION_BATCH_SIZE: z.coerce.number().int().min(1).max(VISION_MAX_IMAGES_PER_REQUEST).default(VISION_MAX_IMAGES_PER_REQUEST),
  /** How long the first frame of a request waits for others to join it; 0 sends each frame as it comes. */
  VISION_BATCH_WINDOW_MS: z.coerce.number().int().min(0).max(2_000).default(40),
  /** Image bytes (base64) one Vision request may carry; the API refuses JSON bodies over 10 MB. */
  VISION_MAX_REQUEST_BYTES: z.coerce.number().int().min(100_000).max(10_000_000).default(9_000_000),
  /** A frame larger than this (bytes) or than VISION_MAX_SIDE is sent downscaled; its boxes are scaled back. */
  VISION_MAX_IMAGE_BYTES: z.coerce.number().int().min(100_000).max(7_000_000).default(4_000_000),
  /** Longest side (pixels) of a frame as sent to Vision. */
  VISION_MAX_SIDE: z.coerce.number().int().min(640).max(16_384).default(4_096),
  /** Frames with more pixels than this are refused as unreadable (decompression bombs). */
  OCR_MAX_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
  /** Requests to Google (Vision and Translation, each) in flight at once. */
  CLOUD_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** One request to Google taking longer than this is abandoned and retried. */
  CLOUD_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Retries inside the worker of a request Google answered 429 or 5xx (or not at all), with growing waits. */
  CLOUD_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** First wait before such a retry; each next one doubles (with jitter), capped at 30 s. */
  CLOUD_RETRY_BASE_MS: z.coerce.number().int().min(1).default(500),
}).transform((c) => ({ ...c, BUS_PREFETCH: c.BUS_PREFETCH ?? 2 * c.VISION_BATCH_SIZE }));

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfigOrExit('ocr-cloud', configSchema, env);
}
