import { OCR_REQUESTED_BINDINGS } from '@frametext/contracts';
import { cancelledBeforeCommit, enqueueEvent, onPrepared, recordFrameCancelled, recordFrameRead, unlessCancelled, type Consumer, type Knex, type ServiceMetrics } from '@frametext/service-kit';
import { ocrFrame, type OcrFrameDeps } from '../domain/ocr-frame.js';
import { uploadDeletedConsumer } from './upload-deleted.js';

/**
 * ocr.requested.v1 for the server engine -> ocr.completed.v1. Tesseract runs in the prepare step, with no transaction
 * open, so a worker holds a database connection only for the short commit of the outcome (inbox row and outbox event),
 * whatever its concurrency. A frame of a deleted upload (upload.deleted.v1, recorded in `db`) is not read, or, read
 * when the deletion came, its text is dropped.
 */
export function ocrConsumers(deps: OcrFrameDeps, maxAttempts: number, db: Knex, metrics?: ServiceMetrics): Consumer[] {
  return [
    onPrepared(
      'ocr.requested.v1',
      (event, ctx) => unlessCancelled(db, event.data.uploadId, () => ocrFrame(event.data, ctx.attempt, deps, maxAttempts)),
      async ({ data }, { trx, log, prepared }) => {
        if (prepared.cancelled || (await cancelledBeforeCommit(trx, data.uploadId))) {
          log.info({ uploadId: data.uploadId, frameIndex: data.frameIndex }, 'upload deleted: frame dropped');
          if (metrics) recordFrameCancelled(metrics, data.engine);
          return;
        }
        const result = prepared.value;
        if (result.failureReason) log.warn({ uploadId: result.uploadId, frameIndex: result.frameIndex, reason: result.failureReason }, 'frame completed without text');
        else if (result.note) log.warn({ uploadId: result.uploadId, frameIndex: result.frameIndex, note: result.note, durationMs: result.durationMs }, 'frame read to its limit');
        else log.info({ uploadId: result.uploadId, frameIndex: result.frameIndex, lines: result.detections.length, durationMs: result.durationMs }, 'frame read');
        await enqueueEvent(trx, 'ocr.completed.v1', result);
        if (metrics) recordFrameRead(metrics, result);
      },
      OCR_REQUESTED_BINDINGS.server,
    ),
    uploadDeletedConsumer(),
  ];
}
