/**
 * The product's numbers and pure rules, in one place (product spec sections 5 and 9). Services, the SPA and
 * tests read them from here; nobody repeats a literal. This module imports nothing, so the SPA can take it
 * (`@frametext/contracts/rules`) without pulling zod into its bundle; common.ts re-exports all of it.
 */

// ---------------------------------------------------------------- engines and credits

/** OCR engines (`ocrType`): Cloud AI, Basic (server-side Tesseract) and Local (in the browser). */
export const ENGINES = ['cloud', 'server', 'local'] as const;
export type Engine = (typeof ENGINES)[number];
/** Engines that run on our servers, i.e. that an upload through POST /getUploadURL can ask for. */
export const SERVER_ENGINES = ['cloud', 'server'] as const;
export type ServerEngine = (typeof SERVER_ENGINES)[number];

/** Credits per frame by engine: cloud 1, server 10 frames per credit, local 20 frames per credit. */
export const CREDIT_RATES: Readonly<Record<Engine, number>> = { cloud: 1, server: 0.1, local: 0.05 };
export const DEFAULT_ENGINE: Engine = 'cloud';

/** Credit packs on sale: 100 for $1, 500 for $5, 2500 for $20 (20% off). Prices in US cents. */
export const CREDIT_PACKS = [
  { credits: 100, priceCents: 100 },
  { credits: 500, priceCents: 500 },
  { credits: 2500, priceCents: 2000 },
] as const;
export type CreditPack = (typeof CREDIT_PACKS)[number];
export type CreditPackSize = CreditPack['credits'];
export const CREDIT_PACK_SIZES = CREDIT_PACKS.map((p) => p.credits) as readonly CreditPackSize[];

/**
 * Subscription tiers follow what a user has bought, net of refunds (there is no recurring plan): free until the
 * first pack is paid for, starter from then on, pro once 2,500 credits have been bought in all. Custom
 * (enterprise) plans are arranged by e-mail and are not a tier the server computes.
 */
export const SUBSCRIPTION_TIERS = [
  { tier: 'free', minCreditsBought: 0 },
  { tier: 'starter', minCreditsBought: 1 },
  { tier: 'pro', minCreditsBought: 2500 },
] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number]['tier'];
export const SUBSCRIPTION_TIER_NAMES = SUBSCRIPTION_TIERS.map((t) => t.tier) as readonly SubscriptionTier[];

/** The tier of a user who has bought `creditsBought` credits (purchases minus refunds). */
export function subscriptionTier(creditsBought: number): SubscriptionTier {
  let tier: SubscriptionTier = 'free';
  for (const t of SUBSCRIPTION_TIERS) if (creditsBought >= t.minCreditsBought) tier = t.tier;
  return tier;
}

// ---------------------------------------------------------------- frames

export const MAX_FRAMES = 360;
export const LOCAL_MAX_FRAMES = 200;

/** Frame interval choices of the upload wizard, in seconds. */
export const FRAME_INTERVALS = [0.1, 0.25, 0.5, 1, 3, 5, 10, 15, 30, 45, 60, 120, 180, 240, 300, 600, 900, 1800, 2700, 3600] as const;
export const DEFAULT_FRAME_INTERVAL = 15;
/** Scan interval choices of the Local page, in seconds. */
export const LOCAL_SCAN_INTERVALS = [0.1, 0.2, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 120, 240, 360] as const;
export const DEFAULT_LOCAL_SCAN_INTERVAL = 5;

/** Presentation slide detection: a sample every 2 s; a new slide when >1% of pixels differ by >1% of 255. */
export const SLIDE_SAMPLE_SECONDS = 2;
export const SLIDE_CHANGED_PIXEL_RATIO = 0.01;
export const SLIDE_PIXEL_DIFF_RATIO = 0.01;

/**
 * The most frames slide detection can keep from a video of this length: one per 2-s sample (a picture that changes
 * at every sample, as a slide building up bullet by bullet can), never more than MAX_FRAMES. The frame interval
 * plays no part. An upload with slide detection is quoted and holds credits for this many frames, and pays only for
 * the frames it keeps and reads.
 */
export function slideDetectionFrames(durationSeconds: number): number {
  return Math.min(frameCount(durationSeconds, SLIDE_SAMPLE_SECONDS), MAX_FRAMES);
}

// ---------------------------------------------------------------- media

/**
 * The three shapes of an upload: a source video cut into frames on the server, photos, or frames the browser
 * already cut from a video.
 */
export const UPLOAD_KINDS = ['video', 'photos', 'frames'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/**
 * Media content modes of an upload (the spec's extraction modes). The SPA's Region tab is `captions`; each mode
 * opens the results on its own tab, and every tab can read any upload.
 */
export const MEDIA_CONTENTS = ['numerical', 'captions', 'presentation', 'scroll'] as const;
export type MediaContent = (typeof MEDIA_CONTENTS)[number];
export const DEFAULT_MEDIA_CONTENT: MediaContent = 'numerical';

export const SORT_PREFERENCES = ['name', 'timestamp'] as const;
export type SortPreference = (typeof SORT_PREFERENCES)[number];

export const VIDEO_EXTENSIONS = ['mp4', 'mov'] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg'] as const;
export const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime'] as const;
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg'] as const;
export type VideoMimeType = (typeof VIDEO_MIME_TYPES)[number];
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];
/** Frames cut by the browser and every frame we extract are JPEG. */
export const FRAME_MIME_TYPE = 'image/jpeg';

/** Lower-case extension of a file name ('' when it has none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function isVideoFileName(fileName: string): boolean {
  return (VIDEO_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

export function isImageFileName(fileName: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

// ---------------------------------------------------------------- storage

/**
 * Source bytes a user's live uploads may hold (the upload service's STORAGE_QUOTA_BYTES). 20 GB: the largest
 * single file the stores take is 2 GiB (fs) or 5 GiB (S3), an hour of 1080p phone video is 4 to 6 GB, and uploads
 * are kept RETENTION_DAYS; it leaves room for several long videos at once while bounding what one account costs.
 */
export const DEFAULT_STORAGE_QUOTA_BYTES = 20_000_000_000;

/** Bytes as people read them (decimal units, as file managers show sizes): "950 B", "4.2 MB", "20 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

// ---------------------------------------------------------------- statuses and time

/**
 * Upload statuses. `uploading` is internal (the row exists, the bytes are not confirmed yet); `downloading`: a video
 * by link is being fetched on the server (its progress travels with it); the spec's four follow once the bytes are
 * in (POST /uploadComplete succeeded, or the fetched video was stored and checked).
 */
export const UPLOAD_STATUSES = ['uploading', 'downloading', 'uploaded', 'processing', 'processed', 'failed'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export const STATUS_POLL_MS = 2500;
export const RETENTION_DAYS = 30;
/** Free credits at sign-up: the spec gives 20 (landing) and 50 (onboarding); the server decides, by config. */
export const DEFAULT_FREE_CREDITS = 50;

// ---------------------------------------------------------------- helpers

/** Rounds away float noise (1.1 / 0.1 is 11.000000000000002) before ceil/floor. */
function clean(x: number): number {
  return Number(x.toFixed(9));
}

/** Frames a video of `durationSeconds` yields at one frame every `intervalSeconds`: ceil(duration / interval), at least 1. */
export function frameCount(durationSeconds: number, intervalSeconds: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) throw new RangeError(`duration must be a finite number of seconds >= 0, got ${durationSeconds}`);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds <= 0) throw new RangeError(`interval must be a finite number of seconds > 0, got ${intervalSeconds}`);
  return Math.max(1, Math.ceil(clean(durationSeconds / intervalSeconds)));
}

/** Credits `frames` frames cost on `engine`: ceil(frames x rate). */
export function creditCost(frames: number, engine: Engine): number {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`frames must be a whole number >= 0, got ${frames}`);
  return Math.ceil(clean(frames * CREDIT_RATES[engine]));
}

/**
 * Credits an upload is charged once it is processed: what its frames read cost, never more than was held for it.
 * Frames that were read are charged whether or not they held text; a frame the engine could not read is not.
 */
export function creditsCaptured(framesRead: number, engine: Engine, creditsHeld: number): number {
  return Math.min(creditCost(framesRead, engine), creditsHeld);
}

/** How many frames `credits` pay for on `engine` ("only the first X frames will be processed"). */
export function affordableFrames(credits: number, engine: Engine): number {
  if (!Number.isFinite(credits) || credits <= 0) return 0;
  return Math.floor(clean(credits / CREDIT_RATES[engine]));
}

// ---------------------------------------------------------------- text found

/** What reading an upload found: its frames, those with any text, and the words on all of them. */
export interface TextFound {
  frames: number;
  framesWithText: number;
  words: number;
}

/** Counts what a reading found from each frame's text (one string per frame, '' where nothing was read). */
export function textFoundIn(frameTexts: readonly string[]): TextFound {
  const words = frameTexts.map((text) => text.split(/\s+/).filter(Boolean).length);
  return { frames: frameTexts.length, framesWithText: words.filter((n) => n > 0).length, words: words.reduce((a, n) => a + n, 0) };
}

export const ALMOST_NO_TEXT_FRAME_SHARE = 0.05;
export const ALMOST_NO_TEXT_WORDS = 10;

/** Rule: no text, or almost none, is text on under 5 % of the frames and under 10 words in all. */
export function foundAlmostNoText({ frames, framesWithText, words }: TextFound): boolean {
  return framesWithText === 0 || (framesWithText < frames * ALMOST_NO_TEXT_FRAME_SHARE && words < ALMOST_NO_TEXT_WORDS);
}

/** Digits of a frame object name's leading timestamp: enough for 360 frames x 3600 s in milliseconds. */
export const FRAME_TIMESTAMP_DIGITS = 10;

/** Zero-padded millisecond string that starts a frame's object name, so names sort by time. */
export function frameTimestampKey(timestampMs: number): string {
  if (!Number.isInteger(timestampMs) || timestampMs < 0) throw new RangeError(`timestamp must be whole milliseconds >= 0, got ${timestampMs}`);
  return String(timestampMs).padStart(FRAME_TIMESTAMP_DIGITS, '0');
}

/** The millisecond timestamp a frame's file name starts with, or null when it starts with no digits. */
export function timestampFromFrameName(fileName: string): number | null {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const match = /^(\d+)/.exec(base);
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------- video links

const YOUTUBE_ID = /(?:youtube\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{11})(?![A-Za-z0-9_-])/;

/** The 11-character id of a watch, embed or short-link address, or null when the link has none. */
export function youtubeVideoId(link: string): string | null {
  return YOUTUBE_ID.exec(link)?.[1] ?? null;
}

/**
 * The one address a YouTube link is fetched from: its watch page, rebuilt from the id alone, so nothing else the
 * text held (another host, a playlist, a start time) is ever fetched.
 */
export function youtubeWatchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

/** What the link input and getUploadURL's youtubeLink say about a link that is not one of the spec's forms. */
export const VIDEO_LINK_FORMS_MESSAGE =
  'Paste a YouTube video link: a watch, embed or short link with its 11-character video id, such as https://www.youtube.com/watch?v=dQw4w9WgXcQ or https://youtu.be/dQw4w9WgXcQ.';
