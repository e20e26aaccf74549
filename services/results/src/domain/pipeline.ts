import type { EventData } from '@frametext/contracts';
import { enqueueEvent, type Knex, type Logger } from '@frametext/service-kit';
import {
  countDoneFrames,
  framesOf,
  isFinal,
  lockUpload,
  markProcessed,
  saveResults,
  upsertCompletedUpload,
  upsertExtractedFrames,
  upsertFailedUpload,
  upsertFrameOcr,
} from '../data/uploads.js';
import { presentationKey, type ResultsContext } from './context.js';
import { buildUploadResults, presentationText } from './frame-text.js';

/*
 * The pipeline's last step. Each use case runs inside the consumer's transaction (the inbox row is written in
 * it too), first locks the upload's row so that the events of one upload are applied one after the other, and
 * ends by trying to finish the upload: events come in any order, so whichever brings the last missing piece
 * finishes it.
 */

export interface HandlerScope {
  trx: Knex.Transaction;
  log: Logger;
}

export async function uploadCompleted(ctx: ResultsContext, { trx, log }: HandlerScope, data: EventData<'upload.completed.v1'>): Promise<void> {
  await lockUpload(trx, data.uploadId);
  await upsertCompletedUpload(trx, data);
  await finishIfComplete(ctx, { trx, log }, data.uploadId);
}

export async function framesExtracted(ctx: ResultsContext, { trx, log }: HandlerScope, data: EventData<'frames.extracted.v1'>): Promise<void> {
  const upload = await lockUpload(trx, data.uploadId);
  if (isFinal(upload.status)) {
    log.warn({ uploadId: data.uploadId, status: upload.status }, 'frames extracted for an upload that is already finished; ignored');
    return;
  }
  await upsertExtractedFrames(trx, data);
  await finishIfComplete(ctx, { trx, log }, data.uploadId);
}

export async function ocrCompleted(ctx: ResultsContext, { trx, log }: HandlerScope, data: EventData<'ocr.completed.v1'>): Promise<void> {
  const upload = await lockUpload(trx, data.uploadId);
  if (isFinal(upload.status)) {
    // A redelivery after the upload finished, or a frame of a failed upload: the stored results stay as they are.
    log.info({ uploadId: data.uploadId, frameIndex: data.frameIndex, status: upload.status }, 'OCR result for a finished upload; ignored');
    return;
  }
  await upsertFrameOcr(trx, data);
  await finishIfComplete(ctx, { trx, log }, data.uploadId);
}

export async function uploadFailed(_ctx: ResultsContext, { trx }: HandlerScope, data: EventData<'upload.failed.v1'>): Promise<void> {
  await lockUpload(trx, data.uploadId);
  await upsertFailedUpload(trx, data);
}

/**
 * Finishes the upload when every frame is in and its metadata has arrived: builds and stores the results
 * (and the presentation text file), sets processed and enqueues upload.processed.v1, all in the caller's
 * transaction with the row locked, so it happens once however the events interleave.
 */
async function finishIfComplete(ctx: ResultsContext, { trx, log }: HandlerScope, uploadId: string): Promise<boolean> {
  const upload = (await trx('uploads').where({ id: uploadId }).first()) as Awaited<ReturnType<typeof lockUpload>>;
  if (isFinal(upload.status)) return false;
  if (upload.frames_total == null || upload.user_id == null || upload.engine == null || upload.media_content == null) return false;
  const done = await countDoneFrames(trx, uploadId, upload.frames_total);
  if (done < upload.frames_total) return false;

  const frames = await framesOf(trx, uploadId, upload.frames_total);
  const built = buildUploadResults(
    frames.map((f) => ({ timestampMs: Number(f.timestamp_ms ?? 0), detections: f.detections ?? [] })),
    upload.media_content,
  );
  let resultsKey: string | null = null;
  if (upload.media_content === 'presentation') {
    resultsKey = presentationKey(uploadId);
    // Written before commit: if the commit fails, the retry writes the same file again.
    await ctx.storage.put(resultsKey, Buffer.from(presentationText(built.ocrResults), 'utf8'), { contentType: 'text/plain; charset=utf-8' });
  }
  await saveResults(trx, {
    upload_id: uploadId,
    processing_type: built.processingType,
    lines_by_frame: built.linesByFrame,
    max_values: built.maxValues,
    ocr_results: built.ocrResults,
    results_key: resultsKey,
  });
  await markProcessed(trx, uploadId);
  // Billing charges the frames the engine could read; a frame that failed OCR is not charged.
  const framesProcessed = frames.filter((f) => f.ocr_failure_reason == null).length;
  await enqueueEvent(trx, 'upload.processed.v1', { uploadId, userId: upload.user_id, framesProcessed, engine: upload.engine });
  log.info({ uploadId, frames: frames.length, framesProcessed }, 'upload processed');
  return true;
}
