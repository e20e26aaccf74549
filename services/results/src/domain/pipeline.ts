import { textFoundIn, type EventData } from '@frametext/contracts';
import { enqueueEvent, type HandlerContext } from '@frametext/service-kit';
import { isDeletedUser } from '../data/deleted-users.js';
import { isDeleted, purgeFailed } from '../data/purges.js';
import {
  countDoneFrames,
  deleteUploadRow,
  findUpload,
  framesOf,
  isFinal,
  lockUpload,
  markProcessed,
  saveResults,
  upsertCompletedUpload,
  upsertExtractedFrames,
  upsertFailedUpload,
  upsertFrameOcr,
  type UploadRow,
} from '../data/uploads.js';
import { presentationKey, type ResultsContext } from './context.js';
import { deleteOnArrival } from './deletion.js';
import { buildUploadResults, presentationText } from './frame-text.js';
import { queueUploadEvent } from './webhooks.js';

/*
 * The pipeline's last step. Each use case runs inside the consumer's transaction (the inbox row is written in
 * it too), first locks the upload's row so that the events of one upload are applied one after the other, and
 * ends by trying to finish the upload: events come in any order, so whichever brings the last missing piece
 * finishes it. Events of a deleted upload change nothing (its tombstone says so).
 */

/** What a use case needs from the consumer's handler: its transaction, its logger, and work to do after the commit. */
export type HandlerScope = Pick<HandlerContext, 'trx' | 'log' | 'afterCommit'>;

/**
 * Locks the upload's row for this event, or answers undefined when the upload was deleted: its late events must not
 * bring it back. The row is locked (created when missing) before the tombstone is read, so a delete that committed
 * while this waited is seen; the empty row this event may have made for a deleted upload goes again.
 */
async function lockLiveUpload({ trx, log }: Pick<HandlerScope, 'trx' | 'log'>, uploadId: string, event: string): Promise<UploadRow | undefined> {
  const upload = await lockUpload(trx, uploadId);
  if (await isDeleted(trx, uploadId)) {
    await deleteUploadRow(trx, uploadId);
    log.info({ uploadId, event }, 'event for a deleted upload; ignored');
    return undefined;
  }
  // Deleted rows always leave a tombstone, so a row gone while locked is a surprise: the bus retries the event.
  if (!upload) throw new Error(`upload ${uploadId} disappeared while its event was applied`);
  return upload;
}

export async function uploadCompleted(ctx: ResultsContext, scope: HandlerScope, data: EventData<'upload.completed.v1'>): Promise<void> {
  if (!(await lockLiveUpload(scope, data.uploadId, 'upload.completed.v1'))) return;
  if (await isDeletedUser(scope.trx, data.userId)) {
    await deleteOnArrival(ctx, scope, { id: data.uploadId, user_id: data.userId });
    return;
  }
  await upsertCompletedUpload(scope.trx, data);
  await finishIfComplete(ctx, scope, data.uploadId);
}

export async function framesExtracted(ctx: ResultsContext, scope: HandlerScope, data: EventData<'frames.extracted.v1'>): Promise<void> {
  const { trx, log } = scope;
  const upload = await lockLiveUpload(scope, data.uploadId, 'frames.extracted.v1');
  if (!upload) return;
  if (isFinal(upload.status)) {
    log.warn({ uploadId: data.uploadId, status: upload.status }, 'frames extracted for an upload that is already finished; ignored');
    return;
  }
  await upsertExtractedFrames(trx, data);
  await finishIfComplete(ctx, scope, data.uploadId);
}

export async function ocrCompleted(ctx: ResultsContext, scope: HandlerScope, data: EventData<'ocr.completed.v1'>): Promise<void> {
  const { trx, log } = scope;
  const upload = await lockLiveUpload(scope, data.uploadId, 'ocr.completed.v1');
  if (!upload) return;
  if (isFinal(upload.status)) {
    // A redelivery after the upload finished, or a frame of a failed upload: the stored results stay as they are.
    log.info({ uploadId: data.uploadId, frameIndex: data.frameIndex, status: upload.status }, 'OCR result for a finished upload; ignored');
    return;
  }
  await upsertFrameOcr(trx, data);
  await finishIfComplete(ctx, scope, data.uploadId);
}

/**
 * Marks the upload failed with its reason (a processed upload stays processed), has its stored files removed
 * promptly by the purge job (a failed upload keeps its row and reason, not its files) and queues upload.failed for the
 * owner's webhooks. The watchdog's failures come through here too: results consumes the upload.failed.v1 it publishes.
 */
export async function uploadFailed(ctx: ResultsContext, scope: HandlerScope, data: EventData<'upload.failed.v1'>): Promise<void> {
  if (!(await lockLiveUpload(scope, data.uploadId, 'upload.failed.v1'))) return;
  await upsertFailedUpload(scope.trx, data);
  const upload = await findUpload(scope.trx, data.uploadId);
  if (upload?.status !== 'failed') return;
  await purgeFailed(scope.trx, data.uploadId);
  // The owner's webhooks hear of it once, however many services report the failure (the event id derives from the upload).
  await queueUploadEvent(ctx, scope.trx, 'upload.failed', upload, data.userId);
}

/**
 * Finishes the upload when every frame is in and its metadata has arrived: builds and stores the results
 * (and the presentation text file), sets processed and enqueues upload.processed.v1 (and the owner's webhook
 * deliveries), all in the caller's
 * transaction with the row locked, so it happens once however the events interleave.
 */
async function finishIfComplete(ctx: ResultsContext, { trx, log, afterCommit }: HandlerScope, uploadId: string): Promise<boolean> {
  const upload = (await findUpload(trx, uploadId))!;
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
    text_found: textFoundIn(built.ocrResults.map((r) => r.text ?? '')),
  });
  const stages = await markProcessed(trx, uploadId);
  afterCommit(async () => {
    for (const [stage, seconds] of Object.entries(stages)) ctx.metrics?.uploadStageDuration.observe({ stage, engine: upload.engine ?? 'unknown' }, seconds);
  });
  // Billing charges the frames the engine could read; a frame that failed OCR is not charged.
  const framesProcessed = frames.filter((f) => f.ocr_failure_reason == null).length;
  await enqueueEvent(trx, 'upload.processed.v1', { uploadId, userId: upload.user_id, framesProcessed, engine: upload.engine });
  await queueUploadEvent(ctx, trx, 'upload.processed', { ...upload, status: 'processed' }, upload.user_id);
  log.info({ uploadId, frames: frames.length, framesProcessed }, 'upload processed');
  return true;
}
