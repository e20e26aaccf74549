import { z } from 'zod';
import { FRAME_INTERVALS, RETENTION_DAYS, servicePort } from '@frametext/contracts';
import { loadConfigOrExit, localHostsSetting, serviceConfig } from '@frametext/service-kit';

const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');

/** Results settings: every key has a default and is read from the environment variable of the same name. */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('results')),
  /**
   * The upload service's internal address: checkUploadStatus asks it about an upload completed a moment ago, while
   * the event that tells results of it is on its way.
   */
  UPLOAD_URL: z.string().url().default(`http://127.0.0.1:${servicePort('upload')}`),
  /** How long that call may take before checkUploadStatus answers 503. */
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** Uploads (rows and stored objects) older than this many days are deleted. */
  RETENTION_DAYS: z.coerce.number().positive().max(3650).default(RETENTION_DAYS),
  /** How often each replica runs the retention job (also once at start). */
  RETENTION_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /**
   * The watchdog fails an upload that has not moved (no frames extracted, no new frame read) for this many minutes,
   * and billing releases its hold. An upload's own work never pauses that long: extraction takes a few minutes at
   * most and a frame seconds. What can is a queue: its frames wait behind every frame queued before them, so raise
   * this if your OCR queue regularly holds more than an hour of work (or add OCR workers).
   */
  STALLED_AFTER_MINUTES: z.coerce.number().int().min(1).default(60),
  /** How often each replica runs the watchdog. */
  WATCHDOG_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How often each replica runs the purge job, which removes the files of deleted and failed uploads when due. */
  PURGE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** After a purge, the same upload's folder is emptied again this many minutes later (files a worker wrote late). */
  PURGE_REPEAT_MINUTES: z.coerce.number().int().min(1).default(60),
  /**
   * How long a deleted upload's tombstone (its late events are ignored) and a failed upload's purge last; the folder
   * is emptied one last time after it. A worker still writing frames after a day is not expected.
   */
  PURGE_WINDOW_HOURS: z.coerce.number().positive().default(24),
  /** Lifetime of the presigned frame, thumbnail and results URLs the endpoints answer. */
  PRESIGN_EXPIRES_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
  /** Seed the public demo upload at start when it does not exist yet (tests turn it off). */
  DEMO_SEED: flag.default(true),
  /** Length of the generated demo video, in seconds. */
  DEMO_VIDEO_SECONDS: z.coerce.number().int().min(30).max(60).default(45),
  /** Seconds between the demo's frames. */
  DEMO_INTERVAL_SECONDS: z.coerce
    .number()
    .refine((s) => s >= 1 && (FRAME_INTERVALS as readonly number[]).includes(s), 'must be one of the wizard\'s intervals, at least 1 s')
    .default(5),
  /** The product's public address: webhook events link to the results under it, and webhooks may not point at it. */
  APP_URL: z.string().url().default('http://localhost:8080'),
  /**
   * Development and tests only: loopback host names (localhost, 127.0.0.1, [::1]) a webhook may use, over plain http
   * too. Empty in production, where every webhook is HTTPS to a public address. Nothing but loopback names is accepted.
   */
  WEBHOOK_LOCAL_HOSTS: localHostsSetting(),
  /** How often each replica looks for webhook deliveries that are due. */
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** A receiver that has not answered within this long is cut off; the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The wait before the second attempt; it doubles per attempt (with jitter) up to WEBHOOK_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  WEBHOOK_MAX_DELAY_MS: z.coerce.number().int().min(10).default(3 * 3_600_000),
  /** A delivery still failing this long after its event is given up and shown as failed. */
  WEBHOOK_GIVE_UP_MS: z.coerce.number().int().min(100).default(24 * 3_600_000),
  /**
   * Test events a person may send a minute, over all their webhooks: each is a request our servers make to an address
   * they chose, so the button cannot be turned into a flood. Past it, 429 with Retry-After.
   */
  WEBHOOK_TEST_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  /** Finished deliveries are kept this many days for the Account page, then the retention job removes them. */
  WEBHOOK_HISTORY_DAYS: z.coerce.number().int().min(1).default(30),
});

export type ResultsConfig = z.infer<typeof configSchema>;
export type Config = ResultsConfig;

export function loadConfig(env: Record<string, string | undefined> = process.env): ResultsConfig {
  return loadConfigOrExit('results', configSchema, env);
}
