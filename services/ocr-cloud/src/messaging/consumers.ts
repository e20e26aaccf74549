import { OCR_REQUESTED_BINDINGS } from '@frametext/contracts';
import { cancelledBeforeCommit, enqueueEvent, onPrepared, recordFrameCancelled, recordFrameRead, unlessCancelled, type Consumer, type Knex, type ServiceMetrics } from '@frametext/service-kit';
import { readCloudFrame, type CloudOcrDeps } from '../domain/read-frame.js';
import { uploadDeletedConsumer } from './upload-deleted.js';

/**
 * ocr.requested.v1 for the cloud engine: Vision (and Translation) are called in the prepare step, with no
 * transaction open; the outcome is then written to the outbox in the inbox transaction, as ocr.completed.v1, or as
 * upload.failed.v1 (stage ocr) when Google refused the engine itself. The message is acked only after that commit. A
 * frame of a deleted upload (upload.deleted.v1, recorded in `db`) is not sent to Google, or, sent when the deletion
 * came, its outcome is dropped.
 */
export function cloudOcrConsumers(deps: CloudOcrDeps, maxAttempts: number, db: Knex, metrics?: ServiceMetrics): Consumer[] {
  return [
    onPrepared(
      'ocr.requested.v1',
      (event, ctx) => unlessCancelled(db, event.data.uploadId, () => readCloudFrame(event.data, ctx.attempt, maxAttempts, deps)),
      async ({ data }, { trx, log, prepared: outcome }) => {
        if (outcome.cancelled || (await cancelledBeforeCommit(trx, data.uploadId))) {
          log.info({ uploadId: data.uploadId, frameIndex: data.frameIndex }, 'upload deleted: frame dropped');
          if (metrics) recordFrameCancelled(metrics, data.engine);
          return;
        }
        const prepared = outcome.value;
        if (prepared.kind === 'upload-failed') {
          log.warn({ uploadId: prepared.failure.uploadId, reason: prepared.failure.reason }, 'upload failed in Cloud AI');
          await enqueueEvent(trx, 'upload.failed.v1', prepared.failure);
          return;
        }
        const result = prepared.result;
        if (result.failureReason) log.warn({ uploadId: result.uploadId, frameIndex: result.frameIndex, reason: result.failureReason }, 'frame completed without text');
        else log.debug({ uploadId: result.uploadId, frameIndex: result.frameIndex, lines: result.detections.length, durationMs: result.durationMs }, 'frame read');
        await enqueueEvent(trx, 'ocr.completed.v1', result);
        if (metrics) recordFrameRead(metrics, result);
      },
      OCR_REQUESTED_BINDINGS.cloud,
    ),
    uploadDeletedConsumer(),
  ];
}
