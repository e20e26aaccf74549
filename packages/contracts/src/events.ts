import { z } from 'zod';
import {
  MAX_FRAMES,
  SERVER_ENGINES,
  isoDateTimeSchema,
  languageCodeSchema,
  mediaContentSchema,
  serverEngineSchema,
  sortPreferenceSchema,
  uploadIdSchema,
  uploadKindSchema,
  userIdSchema,
  type ServerEngine,
} from './common.js';
import { detectionSchema, wordSchema } from './results.js';

/**
 * Every event of the system, by name (`<entity>.<past-tense>.v<N>`). Producers and consumers import
 * their schemas from here and nowhere else. The pipeline's order is in the architecture brief
 * ("One upload, end to end"); each schema says who publishes it and who consumes it.
 */

/** Published by identity when an account is created; consumed by billing (remembers the e-mail, opens the account). */
export const userCreatedV1 = z.object({
  uid: z.string().uuid(),
  email: z.string().email(),
  createdAt: z.string().datetime(),
});

/**
 * Published by identity once an account's e-mail address is proven, exactly once per account: its owner opened the
 * confirmation link mailed at sign-up, or Google vouched for the address (a Google sign-up, or the Google link of an
 * existing account). Consumed by billing, which grants the free credits then (once per user, whatever the copies).
 */
export const userEmailConfirmedV1 = z.object({
  uid: z.string().uuid(),
  confirmedAt: z.string().datetime(),
});

/**
 * Published by identity when a person deletes their account, in the transaction that revokes every session of theirs
 * and erases their personal data from identity (POST /api/auth/delete-account). Consumed by results (deletes all the
 * person's uploads as deleteUploads does: files, rows, tombstones, one upload.deleted.v1 each), upload (cancels the
 * uploads it still holds with upload.cancelled.v1, removes their files, forgets them for the quota and refuses new
 * ones) and billing (erases the e-mail it kept and closes the account; the ledger stays, credits left are forfeited).
 * It carries no personal data: the uid is all anyone needs. Each consumer remembers the uid, so a late event about
 * the person (an upload completed a moment before) is undone rather than brought back.
 */
export const userDeletedV1 = z.object({
  uid: z.string().uuid(),
  deletedAt: z.string().datetime(),
});

const frameIndexSchema = z.number().int().nonnegative().max(MAX_FRAMES - 1);
const timestampMsSchema = z.number().int().nonnegative();
const objectKeySchema = z.string().min(1).max(1024);

/**
 * Published by upload after POST /uploadComplete found the objects; consumed by frame-extraction (cuts or
 * orders the frames) and results (creates the upload's row, shown as uploaded).
 * `objectKeys`: one for a video, one per photo (in the request's file order), one per browser-cut frame.
 * `timestamps` line up with objectKeys: ms from the start for frames, capture times (ms since the epoch) for
 * photos, null for a video. `maxFrames` is what the user paid for: process at most that many frames.
 */
export const uploadCompletedV1 = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  uploadName: z.string(),
  kind: uploadKindSchema,
  objectKeys: z.array(objectKeySchema).min(1).max(MAX_FRAMES),
  mimeType: z.string().min(1),
  fileNames: z.array(z.string()).nullable(),
  timestamps: z.array(timestampMsSchema).nullable(),
  engine: serverEngineSchema,
  mediaContent: mediaContentSchema,
  /** Seconds between frames; null for photos. */
  intervalSeconds: z.number().positive().nullable(),
  slideDetection: z.boolean(),
  sortPreference: sortPreferenceSchema.nullable(),
  maxFrames: z.number().int().positive().max(MAX_FRAMES),
  creditCost: z.number().int().nonnegative(),
  originalLanguage: languageCodeSchema,
  targetLanguage: languageCodeSchema,
  /** Video length in seconds as the client measured it; frame-extraction trusts ffprobe over it. */
  durationSeconds: z.number().nonnegative().nullable(),
  createdAt: isoDateTimeSchema,
});

/** One stored frame: its position, its time and where its image and thumbnail are. */
export const extractedFrameSchema = z.object({
  frameIndex: frameIndexSchema,
  timestampMs: timestampMsSchema,
  objectKey: objectKeySchema,
  thumbnailKey: objectKeySchema.nullable(),
});

/**
 * Published by frame-extraction once every frame is in storage (after their ocr.requested.v1 events, which go out
 * one by one as frames are stored); consumed by results (status processing, framesTotal, frame URLs, thumbnail).
 */
export const framesExtractedV1 = z.object({
  uploadId: uploadIdSchema,
  framesTotal: z.number().int().positive().max(MAX_FRAMES),
  frames: z.array(extractedFrameSchema).min(1).max(MAX_FRAMES),
  /** Length found by ffprobe (null for photos). */
  durationSeconds: z.number().nonnegative().nullable(),
});

/**
 * Published by frame-extraction, one per frame as soon as the frame is stored (so reading overlaps extraction), with
 * routing key {@link ocrRequestedRoutingKey}(engine); consumed by the OCR worker of that engine (ocr-cloud or
 * ocr-tesseract).
 */
export const ocrRequestedV1 = z.object({
  uploadId: uploadIdSchema,
  /** The upload's owner, so a worker that must fail the whole upload (upload.failed.v1) can name them. */
  userId: userIdSchema.optional(),
  frameIndex: frameIndexSchema,
  /**
   * No longer sent: the number of frames is known only when extraction ends, and frames.extracted.v1 carries it.
   * Still accepted from publishers that send it.
   */
  framesTotal: z.number().int().positive().max(MAX_FRAMES).optional(),
  timestampMs: timestampMsSchema,
  objectKey: objectKeySchema,
  engine: serverEngineSchema,
  mediaContent: mediaContentSchema,
  originalLanguage: languageCodeSchema,
  targetLanguage: languageCodeSchema,
  /** Whether the frame was cut from a video (by frame-extraction or the browser), not a photo; absent from older publishers. */
  fromVideo: z.boolean().optional(),
});

/**
 * Published by the OCR worker that read the frame; consumed by results (stores it idempotently by
 * uploadId + frameIndex; when all framesTotal are in, builds lines and finishes the upload).
 * A frame the engine could not read still completes, with no detections and a failureReason, so one bad
 * frame does not hold the upload forever.
 */
export const ocrCompletedV1 = z.object({
  uploadId: uploadIdSchema,
  frameIndex: frameIndexSchema,
  timestampMs: timestampMsSchema,
  engine: serverEngineSchema,
  detections: z.array(detectionSchema),
  words: z.array(wordSchema).optional(),
  /** Image size in pixels, for the viewers' normalised boxes. */
  imageWidth: z.number().int().positive().optional(),
  imageHeight: z.number().int().positive().optional(),
  durationMs: z.number().nonnegative(),
  /** Why the frame has no text, when it could not be read (a failure of ours: the frame is not charged). */
  failureReason: z.string().nullable().optional(),
  /** Why a frame that was read (and is charged) came back short: it used its CPU budget. */
  note: z.string().max(500).optional(),
});

/** Published by results when every frame is in; consumed by billing (captures the credits of the frames processed, releases the rest). */
export const uploadProcessedV1 = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  framesProcessed: z.number().int().nonnegative().max(MAX_FRAMES),
  engine: serverEngineSchema,
});

export const FAILURE_STAGES = ['upload', 'extraction', 'ocr', 'results'] as const;

/**
 * Published by the service whose stage failed for good (upload, frame-extraction, an OCR worker, results; results
 * also fails an upload that made no progress for STALLED_AFTER_MINUTES); consumed by results (status failed with the
 * reason, stored files removed) and billing (releases the whole hold).
 */
export const uploadFailedV1 = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  /** A sentence a person can read, shown on the upload: "The video could not be read: it has no video track." */
  reason: z.string().min(1).max(500),
  stage: z.enum(FAILURE_STAGES),
});

/** Why upload gave up on an upload before it ever reached the pipeline. */
export const UPLOAD_CANCEL_REASONS = [
  /** getUploadURL could not finish after asking billing to hold credits (billing's answer was lost, or a later step failed). */
  'start-failed',
  /** The person never called uploadComplete within ABANDONED_AFTER_HOURS. */
  'abandoned',
  /** The person deleted their account (user.deleted.v1) while the upload was still being started or uploaded. */
  'account-deleted',
  /** The person deleted the upload (POST /deleteUploads) before completing it. */
  'deleted',
] as const;

/**
 * Published by upload when an upload it started will never reach the pipeline: getUploadURL failed after it asked
 * billing for a hold whose outcome it does not know, the person never completed the upload, deleted it before
 * completing it, or deleted their account. Consumed by billing: it releases whatever the upload holds and refuses a reservation for it that arrives
 * later (the cancel can overtake a slow reservation). Not consumed by results: the person never had this upload in their list, so there is nothing
 * to show. upload.failed.v1 is not reused for it because results would then list a failed upload nobody made.
 */
export const uploadCancelledV1 = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  reason: z.enum(UPLOAD_CANCEL_REASONS),
});

/**
 * Published by results when an upload is deleted, by its owner (deleteUploads), by retention or because its owner
 * deleted their account (user.deleted.v1), in the transaction that deletes it. Consumed by billing (charges the frames
 * read so far, `framesRead`, and releases the rest of the hold; a processed upload's charge stays), upload (the upload
 * stops counting towards the quota), and frame-extraction and the OCR workers, on their urgent queues: the upload's
 * work stops (no more frames taken or read, results of reads in flight dropped).
 */
export const uploadDeletedV1 = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  /**
   * Frames the engine had read when the upload was deleted, counted as upload.processed.v1's framesProcessed (a frame
   * read with a failureReason does not count). Absent from older publishers: nothing is charged.
   */
  framesRead: z.number().int().nonnegative().max(MAX_FRAMES).optional(),
});

export const eventSchemas = {
  'user.created.v1': userCreatedV1,
  'user.email-confirmed.v1': userEmailConfirmedV1,
  'user.deleted.v1': userDeletedV1,
  'upload.completed.v1': uploadCompletedV1,
  'frames.extracted.v1': framesExtractedV1,
  'ocr.requested.v1': ocrRequestedV1,
  'ocr.completed.v1': ocrCompletedV1,
  'upload.processed.v1': uploadProcessedV1,
  'upload.failed.v1': uploadFailedV1,
  'upload.cancelled.v1': uploadCancelledV1,
  'upload.deleted.v1': uploadDeletedV1,
} as const;

export type EventSchemas = typeof eventSchemas;
export type EventType = keyof EventSchemas;
export type EventData<T extends EventType> = z.infer<EventSchemas[T]>;

export function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(eventSchemas, type);
}

/** Routing key of an OCR request, so each engine's workers bind only their own (`ocr.requested.v1.server`). */
export function ocrRequestedRoutingKey(engine: ServerEngine): string {
  return `ocr.requested.v1.${engine}`;
}
/** Binding of an engine's OCR worker queue. */
export const OCR_REQUESTED_BINDINGS: Readonly<Record<ServerEngine, string>> = Object.fromEntries(
  SERVER_ENGINES.map((e) => [e, ocrRequestedRoutingKey(e)]),
) as Record<ServerEngine, string>;
