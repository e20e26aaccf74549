import { OCR_REQUESTED_BINDINGS } from '@frametext/contracts';
import { enqueueEvent, onPrepared, recordFrameRead, type Consumer, type ServiceMetrics } from '@frametext/service-kit';
import { ocrFrame, type OcrFrameDeps } from '../domain/ocr-frame.js';

/**
 * ocr.requested.v1 for the server engine -> ocr.completed.v1. Tesseract runs in the prepare step, with no transaction
 * open, so a worker holds a database connection only for the short commit of the outcome (inbox row and outbox event),
 * whatever its concurrency.
 */
export function ocrConsumers(deps: OcrFrameDeps, maxAttempts: number, metrics?: ServiceMetrics): Consumer[] {
  return [
    onPrepared(
      'ocr.requested.v1',
      (event, ctx) => ocrFrame(event.data, ctx.attempt, deps, maxAttempts),
      async (_event, { trx, log, prepared: result }) => {
        if (result.failureReason) log.warn({ uploadId: result.uploadId, frameIndex: result.frameIndex, reason: result.failureReason }, 'frame completed without text');
        else log.info({ uploadId: result.uploadId, frameIndex: result.frameIndex, lines: result.detections.length, durationMs: result.durationMs }, 'frame read');
        await enqueueEvent(trx, 'ocr.completed.v1', result);
        if (metrics) recordFrameRead(metrics, result);
      },
      OCR_REQUESTED_BINDINGS.server,
    ),
  ];
}
