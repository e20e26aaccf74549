import { z } from 'zod';
import { loadConfigOrExit, serviceConfig } from '@frametext/service-kit';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** Upload settings: every key has a default and is read from the environment variable of the same name. */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(8102),
  /** Billing's internal address: credits are reserved there at getUploadURL. */
  BILLING_URL: z.string().url().default('http://127.0.0.1:8106'),
  /** How long a call to billing may take before the upload answers 503. */
  BILLING_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** The "Cloud AI" engine is offered only when its worker (ocr-cloud) runs. */
  CLOUD_OCR_ENABLED: flag,
  /** Lifetime of the presigned PUT URLs, in seconds. */
  UPLOAD_URL_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3_600),
  /** An upload still `uploading` after this many hours is marked failed (the user abandoned it). */
  // Must stay below billing's RESERVATION_TTL_HOURS (6): an upload completed after billing released its hold would
  // be processed unpaid, so it is refused first (its URLs expire after 1 h anyway).
  ABANDONED_AFTER_HOURS: z.coerce.number().positive().default(3),
  /** How often the abandoned-upload sweep runs. */
  ABANDONED_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(15 * 60_000),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfigOrExit('upload', configSchema, env);
}
