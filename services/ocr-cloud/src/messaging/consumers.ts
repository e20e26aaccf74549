import { OCR_REQUESTED_BINDINGS } from '@frametext/contracts';
import { enqueueEvent, onPrepared, recordFrameRead, type Consumer, type ServiceMetrics } from '@frametext/service-kit';
import { readCloudFrame, type CloudOcrDeps } from '../domain/read-frame.js';

/**
 * ocr.requested.v1 for the cloud engine: Vision (and Translation) are called in the prepare step, with no
 * transaction open; the outcome is then written to the outbox in the inbox transaction, as ocr.completed.v1, or as
 * upload.failed.v1 (stage ocr) when Google refused the engine itself. The message is acked only after that commit.
 */
export function cloudOcrConsumers(deps: CloudOcrDeps, maxAttempts: number, metrics?: ServiceMetrics): Consumer[] {
  return [
    onPrepared(
      'ocr.requested.v1',
      (event, ctx) => readCloudFrame(event.data, ctx.attempt, maxAttempts, deps),
      async (_event, { trx, log, prepared }) => {
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
  ];
}
