import { z } from 'zod';
import { servicePort } from '@frametext/contracts';
import { DEFAULT_MAX_UPLOAD_BYTES, loadConfigOrExit, localHostsSetting, serviceConfig } from '@frametext/service-kit';
import { DEFAULT_STORAGE_QUOTA_BYTES, FRAME_INTERVALS, MAX_FRAMES } from '@frametext/contracts';

/** The longest video the wizard can read whole at an interval of 30 s or less: 360 frames x 30 s, 3 hours. */
const DEFAULT_LINK_MAX_SECONDS = MAX_FRAMES * FRAME_INTERVALS.find((s) => s === 30)!;

/** Upload settings: every key has a default and is read from the environment variable of the same name. */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('upload')),
  /** Billing's internal address: credits are reserved there at getUploadURL. */
  BILLING_URL: z.string().url().default('http://127.0.0.1:8106'),
  /** How long a call to billing may take before the upload answers 503. */
  BILLING_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** Queue of the Cloud AI workers (ocr-cloud's service name): uploads may choose Cloud AI while a worker consumes it. */
  OCR_CLOUD_QUEUE: z.string().min(1).default('ocr-cloud'),
  /**
   * Source bytes one user's live uploads may hold (20 GB; see DEFAULT_STORAGE_QUOTA_BYTES for why). getUploadURL
   * refuses declared sizes beyond it, uploadComplete fails an upload whose real bytes go beyond it.
   */
  STORAGE_QUOTA_BYTES: z.coerce.number().int().positive().default(DEFAULT_STORAGE_QUOTA_BYTES),
  /** Lifetime of the presigned PUT URLs, in seconds. */
  UPLOAD_URL_EXPIRY_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3_600),
  /**
   * An upload still `uploading` after this many hours is abandoned: it is marked failed, its files are removed and
   * upload.cancelled.v1 tells billing to release its hold.
   */
  // Must stay below billing's RESERVATION_TTL_HOURS (6): an upload completed after billing released its hold would
  // be processed unpaid, so it is refused first (its URLs expire after 1 h anyway).
  ABANDONED_AFTER_HOURS: z.coerce.number().positive().default(3),
  /** How often the abandoned-upload sweep runs. */
  ABANDONED_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(15 * 60_000),
  /**
   * A getUploadURL still `reserving` after this many seconds crashed or lost billing's answer: the unfinished-start
   * sweep fails it and publishes upload.cancelled.v1, so billing releases whatever it held. A live request takes at
   * most BILLING_TIMEOUT_MS plus a moment, so this must exceed it by 30 s at least.
   */
  UNFINISHED_START_AFTER_SECONDS: z.coerce.number().int().min(1).default(120),
  /** How often the unfinished-start sweep runs: with the default 2 minutes above, a crashed start is cancelled within 3. */
  UNFINISHED_START_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * After an upload's URLs have expired, how long to wait before removing what sits at their keys: room for the
   * object store's clock to run behind this service's (S3 servers check expiry on their own clock).
   */
  UNSEALED_SWEEP_GRACE_SECONDS: z.coerce.number().int().min(0).default(600),
  /** How often the sweep of presigned keys of settled uploads runs. */
  UNSEALED_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(15 * 60_000),
  /** The product's public address: a video link may not point at it. */
  APP_URL: z.string().url().default('http://localhost:8080'),
  /** The downloader videos by link are fetched with (Debian's yt-dlp), by name on PATH or as a path. */
  YT_DLP_PATH: z.string().min(1).default('yt-dlp'),
  /**
   * Development and tests only: loopback host names (localhost, 127.0.0.1, [::1]) a video link may point at, over plain
   * http too, as WEBHOOK_LOCAL_HOSTS does for webhooks. Empty in production: links are https to public addresses.
   */
  VIDEO_LINK_LOCAL_HOSTS: localHostsSetting(),
  /** The largest video fetched by link, in bytes: the largest file a presigned PUT stores (2 GiB). */
  VIDEO_LINK_MAX_BYTES: z.coerce.number().int().min(1).default(DEFAULT_MAX_UPLOAD_BYTES),
  /**
   * The longest video fetched by link, in seconds (3 h: 360 frames at 30 s). A request's own limit can be lower: at
   * its interval the video must fit in 360 frames, as an uploaded one must.
   */
  VIDEO_LINK_MAX_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_LINK_MAX_SECONDS),
  /** A fetch still running after this many seconds is stopped and the upload fails. */
  VIDEO_LINK_TIMEOUT_SECONDS: z.coerce.number().int().min(5).default(1_800),
  /** Videos one replica fetches at a time; a link beyond that is refused with 503 before anything is held. */
  VIDEO_LINK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /**
   * A fetch reports its progress every few seconds; one silent this long stopped with its process, and the sweep fails
   * it (upload.failed.v1: billing releases the hold). Must exceed the 2-s heartbeat by far.
   */
  VIDEO_LINK_STALL_SECONDS: z.coerce.number().int().min(10).default(60),
}).superRefine((c, ctx) => {
  if (c.UNFINISHED_START_AFTER_SECONDS * 1000 < c.BILLING_TIMEOUT_MS + 30_000) {
    ctx.addIssue({ code: 'custom', path: ['UNFINISHED_START_AFTER_SECONDS'], message: `must exceed BILLING_TIMEOUT_MS by 30 s at least (at least ${Math.ceil(c.BILLING_TIMEOUT_MS / 1000) + 30})` });
  }
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfigOrExit('upload', configSchema, env);
}
