import { ocrRequestedRoutingKey, type EventData } from '@frametext/contracts';
import { enqueueEvent, type Knex } from '@frametext/service-kit';
import type { ExtractionOutcome } from './extract-upload.js';

/**
 * Writes the outcome's events to the outbox in the handler's transaction: frames.extracted.v1 first, then one
 * ocr.requested.v1 per frame routed to the engine's workers; or upload.failed.v1 (stage extraction).
 */
export async function enqueueOutcome(trx: Knex.Transaction, upload: EventData<'upload.completed.v1'>, outcome: ExtractionOutcome): Promise<void> {
  if (!outcome.ok) {
    await enqueueEvent(trx, 'upload.failed.v1', { uploadId: upload.uploadId, userId: upload.userId, reason: outcome.reason, stage: 'extraction' });
    return;
  }
  const framesTotal = outcome.frames.length;
  const frames = outcome.frames.map((f, frameIndex) => ({ frameIndex, timestampMs: f.timestampMs, objectKey: f.objectKey, thumbnailKey: f.thumbnailKey }));
  await enqueueEvent(trx, 'frames.extracted.v1', { uploadId: upload.uploadId, framesTotal, frames, durationSeconds: outcome.durationSeconds });
  const routingKey = ocrRequestedRoutingKey(upload.engine);
  for (const frame of frames) {
    await enqueueEvent(
      trx,
      'ocr.requested.v1',
      {
        uploadId: upload.uploadId,
        userId: upload.userId,
        frameIndex: frame.frameIndex,
        framesTotal,
        timestampMs: frame.timestampMs,
        objectKey: frame.objectKey,
        engine: upload.engine,
        mediaContent: upload.mediaContent,
        originalLanguage: upload.originalLanguage,
        targetLanguage: upload.targetLanguage,
      },
      { routingKey },
    );
  }
}
