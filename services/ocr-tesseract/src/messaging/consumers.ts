import { OCR_REQUESTED_BINDINGS } from '@frametext/contracts';
import { enqueueEvent, on, type Consumer } from '@frametext/service-kit';
import { ocrFrame, type OcrFrameDeps } from '../domain/ocr-frame.js';

/** ocr.requested.v1 for the server engine -> ocr.completed.v1, written to the outbox in the handler's transaction. */
export function ocrConsumers(deps: OcrFrameDeps, maxAttempts: number): Consumer[] {
  return [
    on(
      'ocr.requested.v1',
      async (event, ctx) => {
        const result = await ocrFrame(event.data, ctx.attempt, deps, maxAttempts);
        if (result.failureReason) ctx.log.warn({ uploadId: result.uploadId, frameIndex: result.frameIndex, reason: result.failureReason }, 'frame completed without text');
        else ctx.log.info({ uploadId: result.uploadId, frameIndex: result.frameIndex, lines: result.detections.length, durationMs: result.durationMs }, 'frame read');
        await enqueueEvent(ctx.trx, 'ocr.completed.v1', result);
      },
      OCR_REQUESTED_BINDINGS.server,
    ),
  ];
}
