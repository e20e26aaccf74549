import {
  DEMO_UPLOAD_ID,
  creditsCaptured,
  type Detection,
  type GetUploadsResponse,
  type Line,
  type MaxValues,
  type OcrFrameResult,
  type SettledUpload,
  type UploadData,
  type UploadDetailsOldResponse,
  type UploadDetailsResponse,
  type UploadStatusResponse,
} from '@frametext/contracts';
import { AppError, conflict, notFound } from '@frametext/service-kit';
import { wasDeletedBy } from '../data/deleted-uploads.js';
import { countDoneFrames, countReadFrames, countUploadsAhead, findResults, findUpload, framesOf, listUploadsOf, textFoundOf, type UploadRow } from '../data/uploads.js';
import { uploadFolder, type ResultsContext } from './context.js';

/** Who asks: a signed-in user, or anyone for the public demo. */
export type Viewer = { userId: string } | { demo: true };

const NOT_FOUND_MESSAGE = 'No upload with this id.';
export const DELETED_MESSAGE = 'This upload was deleted, with its files and results.';

/**
 * The upload if the viewer may see it; someone else's upload answers exactly like a missing one. An upload the
 * viewer deleted (or retention removed) answers 410 `uploads/deleted`: only its owner learns it existed.
 */
export async function visibleUpload(ctx: ResultsContext, viewer: Viewer, uploadId: string): Promise<UploadRow> {
  const ownerId = 'demo' in viewer ? DEMO_UPLOAD_ID : viewer.userId;
  if ('demo' in viewer && uploadId !== DEMO_UPLOAD_ID) throw notFound('uploads/not-found', NOT_FOUND_MESSAGE);
  const upload = await findUpload(ctx.db, uploadId);
  if (!upload || upload.user_id == null || upload.user_id !== ownerId) {
    if ('demo' in viewer) throw notFound('results/demo-not-ready', 'The demo is still being prepared. Please try again in a minute.');
    if (!upload && (await wasDeletedBy(ctx.db, uploadId, viewer.userId))) throw new AppError(410, 'uploads/deleted', DELETED_MESSAGE);
    throw notFound('uploads/not-found', NOT_FOUND_MESSAGE);
  }
  return upload;
}

/**
 * GET /checkUploadStatus: results' record of the upload, or the upload service's while results has none. results
 * hears of an upload through upload.completed.v1 (or upload.failed.v1), a moment after uploadComplete answered; a
 * client that asks at once must not be told the upload does not exist. Asking the upload service (its record is the
 * one uploadComplete wrote) writes nothing here, so the event stays the one way results records an upload and
 * nothing can be lost or recorded twice; the upload service checks the caller's own token, so it answers only the
 * owner, and anyone else gets the 404 of a missing upload.
 */
export async function uploadStatus(ctx: ResultsContext, caller: { userId: string; token: string }, uploadId: string): Promise<UploadStatusResponse> {
  let upload: UploadRow;
  try {
    upload = await visibleUpload(ctx, { userId: caller.userId }, uploadId);
  } catch (err) {
    if (!(err instanceof AppError && err.status === 404)) throw err;
    const settled = await ctx.uploadService.settledUpload(uploadId, caller.token);
    if (!settled) throw err;
    return settledStatus(ctx, settled);
  }
  // Frames are read while the video is still being cut: they count before the total is known.
  const framesDone = await countDoneFrames(ctx.db, uploadId, upload.frames_total);
  // Nothing read yet: say how many uploads go first, so "0 of 56 frames" is not all the person sees.
  const waiting = (upload.status === 'uploaded' || upload.status === 'processing') && framesDone === 0;
  return {
    data: {
      uploadID: upload.id,
      status: upload.status,
      framesDone,
      framesTotal: upload.frames_total,
      uploadsAhead: waiting ? await countUploadsAhead(ctx.db, upload) : 0,
      failureReason: upload.status === 'failed' ? upload.failure_reason : null,
      ...(upload.status === 'processed' ? await readingOutcome(ctx, upload) : {}),
    },
  };
}

/** A processed upload's reading: what it found, and what it was charged (as billing captured it from upload.processed.v1). */
async function readingOutcome(ctx: ResultsContext, upload: UploadRow): Promise<Pick<UploadStatusResponse['data'], 'textFound' | 'charged'>> {
  const textFound = await textFoundOf(ctx.db, upload.id);
  const framesRead = await countReadFrames(ctx.db, upload.id);
  return {
    ...(textFound ? { textFound } : {}),
    ...(upload.engine && upload.credit_cost !== null ? { charged: { credits: creditsCaptured(framesRead, upload.engine, upload.credit_cost), framesRead } } : {}),
  };
}

/**
 * The status of an upload results has not heard of yet, as the upload service settled it: nothing read so far; or a
 * video by link the upload service is still fetching, with how far.
 */
async function settledStatus(ctx: ResultsContext, settled: SettledUpload): Promise<UploadStatusResponse> {
  const completedAt = settled.status === 'uploaded' && settled.completedAt ? new Date(settled.completedAt) : undefined;
  const queued = completedAt && { id: settled.uploadID, engine: settled.engine, uploaded_at: completedAt, created_at: completedAt };
  return {
    data: {
      uploadID: settled.uploadID,
      status: settled.status,
      framesDone: 0,
      framesTotal: null,
      uploadsAhead: queued ? await countUploadsAhead(ctx.db, queued) : 0,
      failureReason: settled.failureReason,
      ...(settled.status === 'downloading' && settled.download ? { download: settled.download } : {}),
    },
  };
}

export async function listUploads(ctx: ResultsContext, userId: string): Promise<GetUploadsResponse> {
  const rows = await listUploadsOf(ctx.db, userId);
  const uploads = await Promise.all(
    rows.map(async (row) => {
      // A failed upload's files are removed: no thumbnail to show, the card shows its placeholder.
      const imageKey = row.status === 'failed' ? null : (row.first_thumbnail_key ?? row.first_object_key);
      return {
        id: row.id,
        uploadName: row.upload_name ?? '',
        uploadedAt: (row.uploaded_at ?? row.created_at).toISOString(),
        imageUrl: imageKey ? await ctx.storage.presignGet(imageKey, { expiresIn: ctx.config.PRESIGN_EXPIRES_SECONDS }) : null,
        status: row.status,
        mediaContent: row.media_content ?? 'numerical',
        isLocal: false,
        ...(row.engine ? { ocrType: row.engine } : {}),
        ...(row.status === 'processed' && row.text_found ? { textFound: row.text_found } : {}),
      };
    }),
  );
  return { data: { uploads } };
}

function toUploadData(upload: UploadRow, framesDone: number): UploadData {
  return {
    uploadName: upload.upload_name ?? '',
    createdAt: { _seconds: Math.floor(upload.created_at.getTime() / 1000) },
    ocrType: upload.engine ?? 'server',
    isVideo: upload.kind !== 'photos',
    mediaContent: upload.media_content ?? 'numerical',
    // The spec's targetFrameRate is frames per second: 1 / the interval.
    targetFrameRate: upload.interval_seconds ? 1 / upload.interval_seconds : null,
    maxFrames: upload.max_frames ?? upload.frames_total ?? 0,
    creditCost: upload.credit_cost ?? 0,
    source: 'upload',
    status: upload.status,
    mimeType: upload.mime_type ?? '',
    basePath: `${uploadFolder(upload.id)}/`,
    ownerUid: upload.user_id!,
    userID: upload.user_id!,
    originalLanguage: upload.original_language,
    targetLanguage: upload.target_language,
    sortPreference: upload.sort_preference,
    processedAt: upload.processed_at?.toISOString() ?? null,
    uploadedAt: upload.uploaded_at?.toISOString() ?? null,
    kind: upload.kind ?? undefined,
    slideDetection: upload.slide_detection ?? undefined,
    duration: upload.duration_seconds,
    framesDone,
    framesTotal: upload.frames_total,
    failureReason: upload.failure_reason,
  };
}

/** The details both endpoints share: upload data, stored results, per-frame detections and presigned frame URLs. */
async function details(ctx: ResultsContext, viewer: Viewer, uploadId: string) {
  const upload = await visibleUpload(ctx, viewer, uploadId);
  if (upload.status === 'failed') {
    throw conflict('results/failed', `Results are not available: ${upload.failure_reason ?? 'processing failed.'}`);
  }
  const stored = upload.status === 'processed' ? await findResults(ctx.db, uploadId) : undefined;
  if (!stored) {
    if ('demo' in viewer) throw conflict('results/not-ready', 'The demo is still being processed. Please try again in a minute.');
    throw conflict('results/not-ready', 'Results not yet available.');
  }
  const frames = await framesOf(ctx.db, uploadId, upload.frames_total);
  const expiresIn = ctx.config.PRESIGN_EXPIRES_SECONDS;
  const urls = await Promise.all(frames.filter((f) => f.object_key).map((f) => ctx.storage.presignGet(f.object_key!, { expiresIn })));
  // Detections were validated with their event's schema before they were stored.
  const results: Detection[][] = frames.map((f) => f.detections ?? []);
  const resultsUrl = stored.results_key ? await ctx.storage.presignGet(stored.results_key, { expiresIn }) : null;
  return {
    uploadData: toUploadData(upload, frames.length),
    results,
    maxValues: stored.max_values as MaxValues,
    linesByFrame: stored.lines_by_frame as Line[][],
    ocrResults: stored.ocr_results as OcrFrameResult[],
    processingType: stored.processing_type,
    resultsUrl,
    urls,
  };
}

export async function uploadDetails(ctx: ResultsContext, viewer: Viewer, uploadId: string): Promise<UploadDetailsResponse> {
  const d = await details(ctx, viewer, uploadId);
  return {
    uploadData: d.uploadData,
    results: { results: d.results, maxValues: d.maxValues, linesByFrame: d.linesByFrame, ocrResults: d.ocrResults, processingType: d.processingType, resultsUrl: d.resultsUrl },
    urls: d.urls,
  };
}

/** The older shape the numerical viewer reads: results, maxValues and resultsUrl only. */
export async function uploadDetailsOld(ctx: ResultsContext, viewer: Viewer, uploadId: string): Promise<UploadDetailsOldResponse> {
  const d = await details(ctx, viewer, uploadId);
  return { uploadData: d.uploadData, results: { results: d.results, maxValues: d.maxValues, resultsUrl: d.resultsUrl }, urls: d.urls };
}
