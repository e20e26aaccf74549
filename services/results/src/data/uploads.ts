import type { Detection, EventData, MediaContent, TextFound, UploadStatus } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

/** A row of `uploads`. Metadata columns stay null until upload.completed.v1 has been handled. */
export interface UploadRow {
  id: string;
  user_id: string | null;
  upload_name: string | null;
  kind: 'video' | 'photos' | 'frames' | null;
  engine: 'cloud' | 'server' | null;
  media_content: MediaContent | null;
  interval_seconds: number | null;
  slide_detection: boolean | null;
  sort_preference: 'name' | 'timestamp' | null;
  max_frames: number | null;
  credit_cost: number | null;
  original_language: string | null;
  target_language: string | null;
  mime_type: string | null;
  duration_seconds: number | null;
  status: UploadStatus;
  failure_reason: string | null;
  frames_total: number | null;
  created_at: Date;
  uploaded_at: Date | null;
  processed_at: Date | null;
  /** When the upload last moved: completed, frames extracted, a new frame read (the watchdog's clock). */
  last_progress_at: Date;
}

export interface FrameRow {
  upload_id: string;
  frame_index: number;
  timestamp_ms: number | null;
  object_key: string | null;
  thumbnail_key: string | null;
  detections: Detection[] | null;
  image_width: number | null;
  image_height: number | null;
  ocr_failure_reason: string | null;
  ocr_done_at: Date | null;
}

export interface ResultsRow {
  upload_id: string;
  processing_type: MediaContent;
  lines_by_frame: unknown;
  max_values: unknown;
  ocr_results: unknown;
  results_key: string | null;
}

/** Statuses an upload no longer leaves. */
const FINAL = ['processed', 'failed'];

/** Creates or completes the upload's row from upload.completed.v1, whatever arrived before it; the status only moves forward. */
export async function upsertCompletedUpload(trx: Knex.Transaction, data: EventData<'upload.completed.v1'>): Promise<void> {
  const metadata = {
    user_id: data.userId,
    upload_name: data.uploadName,
    kind: data.kind,
    engine: data.engine,
    media_content: data.mediaContent,
    interval_seconds: data.intervalSeconds,
    slide_detection: data.slideDetection,
    sort_preference: data.sortPreference,
    max_frames: data.maxFrames,
    credit_cost: data.creditCost,
    original_language: data.originalLanguage,
    target_language: data.targetLanguage,
    mime_type: data.mimeType,
    created_at: data.createdAt,
  };
  await trx('uploads')
    .insert({ id: data.uploadId, ...metadata, duration_seconds: data.durationSeconds, status: 'uploaded', uploaded_at: trx.fn.now(), last_progress_at: trx.fn.now() })
    .onConflict('id')
    .merge({
      ...metadata,
      last_progress_at: trx.fn.now(),
      // ffprobe's length (from frames.extracted) wins over the client's.
      duration_seconds: trx.raw('coalesce(uploads.duration_seconds, excluded.duration_seconds)'),
      uploaded_at: trx.raw('coalesce(uploads.uploaded_at, excluded.uploaded_at)'),
    });
}

/** The status once frames are being read or extracted: processing, unless the upload is already further. */
const processingFrom = (trx: Knex.Transaction, status: string) => trx.raw(`case when ${status} in ('uploading', 'uploaded') then 'processing' else ${status} end`);

/** Records the frames of frames.extracted.v1 and moves the upload to processing (unless it is already further). */
export async function upsertExtractedFrames(trx: Knex.Transaction, data: EventData<'frames.extracted.v1'>): Promise<void> {
  await trx('uploads')
    .insert({ id: data.uploadId, status: 'processing', frames_total: data.framesTotal, duration_seconds: data.durationSeconds, last_progress_at: trx.fn.now(), extracted_at: trx.fn.now() })
    .onConflict('id')
    .merge({
      frames_total: data.framesTotal,
      last_progress_at: trx.fn.now(),
      extracted_at: trx.raw('coalesce(uploads.extracted_at, excluded.extracted_at)'),
      duration_seconds: trx.raw('coalesce(excluded.duration_seconds, uploads.duration_seconds)'),
      status: processingFrom(trx, 'uploads.status'),
    });
  await trx('frames')
    .insert(
      data.frames.map((f) => ({
        upload_id: data.uploadId,
        frame_index: f.frameIndex,
        timestamp_ms: f.timestampMs,
        object_key: f.objectKey,
        thumbnail_key: f.thumbnailKey,
      })),
    )
    .onConflict(['upload_id', 'frame_index'])
    .merge(['timestamp_ms', 'object_key', 'thumbnail_key']);
}

/**
 * Stores one frame's OCR outcome; storing the same frame again replaces it, so a frame is counted once. A frame
 * read for the first time is progress (the watchdog's clock restarts); a second copy is not.
 */
export async function upsertFrameOcr(trx: Knex.Transaction, data: EventData<'ocr.completed.v1'>): Promise<void> {
  const earlier = await trx('frames').where({ upload_id: data.uploadId, frame_index: data.frameIndex }).first<{ ocr_done_at: Date | null } | undefined>('ocr_done_at');
  // A first reading of this frame is progress; frames are read while the rest are still being extracted, so the first
  // one read also makes the upload processing.
  if (!earlier?.ocr_done_at) {
    await trx('uploads')
      .where({ id: data.uploadId })
      .update({ last_progress_at: trx.fn.now(), status: processingFrom(trx, 'status') });
  }
  await trx('frames')
    .insert({
      upload_id: data.uploadId,
      frame_index: data.frameIndex,
      timestamp_ms: data.timestampMs,
      detections: JSON.stringify(data.detections),
      image_width: data.imageWidth ?? null,
      image_height: data.imageHeight ?? null,
      ocr_failure_reason: data.failureReason ?? null,
      ocr_done_at: trx.fn.now(),
    })
    .onConflict(['upload_id', 'frame_index'])
    .merge(['detections', 'image_width', 'image_height', 'ocr_failure_reason', 'ocr_done_at']);
}

/** Marks the upload failed with a reason a person can read; a processed upload stays processed. */
export async function upsertFailedUpload(trx: Knex.Transaction, data: EventData<'upload.failed.v1'>): Promise<void> {
  await trx('uploads')
    .insert({ id: data.uploadId, user_id: data.userId, status: 'failed', failure_reason: data.reason })
    .onConflict('id')
    .merge({
      user_id: trx.raw('coalesce(uploads.user_id, excluded.user_id)'),
      status: trx.raw(`case when uploads.status = 'processed' then uploads.status else 'failed' end`),
      failure_reason: trx.raw(`case when uploads.status = 'processed' then uploads.failure_reason else excluded.failure_reason end`),
    });
}

/**
 * Makes sure the row exists and locks it: handlers of one upload then run one after the other. Undefined when a
 * delete removed the row while this waited for it.
 */
export async function lockUpload(trx: Knex.Transaction, uploadId: string): Promise<UploadRow | undefined> {
  await trx('uploads').insert({ id: uploadId }).onConflict('id').ignore();
  return trx<UploadRow>('uploads').where({ id: uploadId }).forUpdate().first();
}

export function isFinal(status: UploadStatus): boolean {
  return FINAL.includes(status);
}

/** Frames whose OCR is in, counted once each, among the first `framesTotal` (all of them while that is unknown). */
export async function countDoneFrames(db: Knex | Knex.Transaction, uploadId: string, framesTotal: number | null): Promise<number> {
  const done = db('frames').where({ upload_id: uploadId }).whereNotNull('ocr_done_at');
  const row = await (framesTotal === null ? done : done.where('frame_index', '<', framesTotal)).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Frames the engine has read (OCR in, without a failure reason), as upload.processed.v1 counts them: what a delete charges. */
export async function countReadFrames(db: Knex | Knex.Transaction, uploadId: string): Promise<number> {
  const row = await db('frames').where({ upload_id: uploadId }).whereNotNull('ocr_done_at').whereNull('ocr_failure_reason').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/**
 * Uploads ahead of `upload` in its engine's OCR queue: others of the same engine still uploaded or processing
 * (frames being extracted or waiting to be read) that were uploaded before it. Frames are read in the order they
 * were queued, so these go first.
 */
export async function countUploadsAhead(db: Knex | Knex.Transaction, upload: Pick<UploadRow, 'id' | 'engine' | 'uploaded_at' | 'created_at'>): Promise<number> {
  if (upload.engine === null) return 0;
  const row = await db('uploads')
    .whereIn('status', ['uploaded', 'processing'])
    .where({ engine: upload.engine })
    .whereNot({ id: upload.id })
    .whereRaw('coalesce(uploaded_at, created_at) < ?', [upload.uploaded_at ?? upload.created_at])
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

export async function framesOf(db: Knex | Knex.Transaction, uploadId: string, framesTotal?: number | null): Promise<FrameRow[]> {
  const q = db<FrameRow>('frames').where({ upload_id: uploadId }).orderBy('frame_index');
  if (framesTotal != null) q.where('frame_index', '<', framesTotal);
  return q;
}

export async function saveResults(
  trx: Knex.Transaction,
  row: Omit<ResultsRow, 'lines_by_frame' | 'max_values' | 'ocr_results'> & { lines_by_frame: unknown; max_values: unknown; ocr_results: unknown; text_found: TextFound },
): Promise<void> {
  await trx('upload_results')
    .insert({
      ...row,
      lines_by_frame: JSON.stringify(row.lines_by_frame),
      max_values: JSON.stringify(row.max_values),
      ocr_results: JSON.stringify(row.ocr_results),
      text_found: JSON.stringify(row.text_found),
    })
    .onConflict('upload_id')
    .merge();
}

/** Seconds an upload spent in each stage: extraction (file received to frames extracted), ocr (to processed), total. */
export type StageSeconds = Partial<Record<'extraction' | 'ocr' | 'total', number>>;

/** Marks an upload processed; returns the time it spent in each stage, where both ends are known. */
export async function markProcessed(trx: Knex.Transaction, uploadId: string): Promise<StageSeconds> {
  const rows: { extraction: number | null; ocr: number | null; total: number | null }[] = await trx('uploads')
    .where({ id: uploadId })
    .update({ status: 'processed', processed_at: trx.fn.now(), failure_reason: null })
    .returning([
      trx.raw('extract(epoch from (extracted_at - uploaded_at))::float8 as extraction'),
      trx.raw('extract(epoch from (processed_at - extracted_at))::float8 as ocr'),
      trx.raw('extract(epoch from (processed_at - uploaded_at))::float8 as total'),
    ] as never);
  const row = rows[0];
  return Object.fromEntries(Object.entries(row ?? {}).filter(([, v]) => v !== null)) as StageSeconds;
}

export async function findUpload(db: Knex | Knex.Transaction, uploadId: string): Promise<UploadRow | undefined> {
  return db<UploadRow>('uploads').where({ id: uploadId }).first();
}

export async function findResults(db: Knex, uploadId: string): Promise<ResultsRow | undefined> {
  return db<ResultsRow>('upload_results').where({ upload_id: uploadId }).first();
}

/** What a processed upload's reading found, or null while it has no results (or was processed before it was counted). */
export async function textFoundOf(db: Knex, uploadId: string): Promise<TextFound | null> {
  const row = await db('upload_results').where({ upload_id: uploadId }).first('text_found');
  return (row?.text_found as TextFound | null | undefined) ?? null;
}

export interface UploadListRow extends UploadRow {
  first_thumbnail_key: string | null;
  first_object_key: string | null;
  /** What its reading found, once the upload has results. */
  text_found: TextFound | null;
}

/** A user's uploads, newest first, each with its first frame's image keys and, once processed, what its reading found. */
export async function listUploadsOf(db: Knex, userId: string): Promise<UploadListRow[]> {
  return db('uploads as u')
    .leftJoin('frames as f', (j) => j.on('f.upload_id', 'u.id').andOn('f.frame_index', db.raw('0')))
    .leftJoin('upload_results as r', 'r.upload_id', 'u.id')
    .where('u.user_id', userId)
    .select('u.*', 'f.thumbnail_key as first_thumbnail_key', 'f.object_key as first_object_key', 'r.text_found')
    .orderBy([
      { column: 'u.created_at', order: 'desc' },
      { column: 'u.id', order: 'asc' },
    ]);
}

/** An upload's id and owner (null while upload.completed.v1 has not arrived). */
export interface UploadOwner {
  id: string;
  user_id: string | null;
}

/** Locks the caller's uploads among `ids` (others' and unknown ids are left out). */
export async function lockOwnedUploads(trx: Knex.Transaction, userId: string, ids: readonly string[]): Promise<UploadOwner[]> {
  return trx('uploads').where({ user_id: userId }).whereIn('id', [...new Set(ids)]).orderBy('id').forUpdate().select('id', 'user_id');
}

/** The caller's uploads among `ids` that results has (no lock: a first look before asking the upload service about the rest). */
export async function ownedAmong(db: Knex, userId: string, ids: readonly string[]): Promise<string[]> {
  return db('uploads').where({ user_id: userId }).whereIn('id', [...ids]).pluck('id');
}

/** Locks every upload of a user (account deletion). */
export async function lockUploadsOf(trx: Knex.Transaction, userId: string): Promise<UploadOwner[]> {
  return trx('uploads').where({ user_id: userId }).orderBy('id').forUpdate().select('id', 'user_id');
}

/** Locks up to `limit` uploads created before `cutoff`, oldest first, except `keep`; skips rows another transaction holds. */
export async function lockCreatedBefore(trx: Knex.Transaction, cutoff: Date, keep: readonly string[], limit: number): Promise<UploadOwner[]> {
  return trx('uploads').where('created_at', '<', cutoff).whereNotIn('id', [...keep]).orderBy('created_at').limit(limit).forUpdate().skipLocked().select('id', 'user_id');
}

/** Deletes the upload's row; its frames and results go with it (foreign keys cascade). */
export async function deleteUploadRow(db: Knex | Knex.Transaction, uploadId: string): Promise<void> {
  await db('uploads').where({ id: uploadId }).del();
}

export interface StalledUpload extends UploadOwner {
  user_id: string;
  status: UploadStatus;
  frames_total: number | null;
}

/**
 * Locks up to `limit` uploads still on their way (uploaded or processing) with an owner that have not moved since
 * before `before`; skips rows a handler holds (an event being applied is progress).
 */
export async function lockStalled(trx: Knex.Transaction, before: Date, limit: number): Promise<StalledUpload[]> {
  return trx('uploads')
    .whereIn('status', ['uploaded', 'processing'])
    .whereNotNull('user_id')
    .where('last_progress_at', '<', before)
    .orderBy('last_progress_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id', 'user_id', 'status', 'frames_total');
}

/** Marks an upload failed with a reason a person can read. */
export async function markFailed(trx: Knex.Transaction, uploadId: string, reason: string): Promise<void> {
  await trx('uploads').where({ id: uploadId }).update({ status: 'failed', failure_reason: reason });
}
