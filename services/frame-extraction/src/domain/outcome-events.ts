import { ocrRequestedRoutingKey, type Envelope, type EventData } from '@frametext/contracts';
import { UploadCancelledError, cancelledBeforeCommit, derivedEventId, enqueueEvent, type Knex } from '@frametext/service-kit';
import type { ExtractionOutcome } from './extract-upload.js';
import type { StoredFrame } from './stored-frame.js';

type UploadCompleted = Envelope<EventData<'upload.completed.v1'>>;

/**
 * Asks the engine's workers to read one stored frame (ocr.requested.v1, routed by engine), at once and in a
 * transaction of its own, while the rest of the upload is still being extracted. Its id is derived from the
 * upload.completed.v1 message and the frame's place, so extracting again after a crash asks once per frame. Once the
 * upload's deletion is recorded here, no request is written for it: UploadCancelledError stops the extraction.
 */
export async function enqueueOcrRequest(db: Knex, completed: UploadCompleted, frame: StoredFrame, frameIndex: number): Promise<void> {
  const upload = completed.data;
  await db.transaction(async (trx) => {
    if (await cancelledBeforeCommit(trx, upload.uploadId)) throw new UploadCancelledError(upload.uploadId);
    await enqueueOcrRequestIn(trx, completed, frame, frameIndex);
  });
}

async function enqueueOcrRequestIn(trx: Knex.Transaction, completed: UploadCompleted, frame: StoredFrame, frameIndex: number): Promise<void> {
  const upload = completed.data;
  await enqueueEvent(
    trx,
    'ocr.requested.v1',
    {
      uploadId: upload.uploadId,
      userId: upload.userId,
      frameIndex,
      timestampMs: frame.timestampMs,
      objectKey: frame.objectKey,
      engine: upload.engine,
      mediaContent: upload.mediaContent,
      originalLanguage: upload.originalLanguage,
      targetLanguage: upload.targetLanguage,
      fromVideo: upload.kind !== 'photos',
    },
    { id: derivedEventId(completed.id, 'ocr.requested.v1', frameIndex), routingKey: ocrRequestedRoutingKey(upload.engine) },
  );
}

/**
 * Writes the outcome in the handler's transaction: frames.extracted.v1 with every frame and their number (the
 * frames' OCR requests are out already), or upload.failed.v1 (stage extraction); nothing for a deleted upload.
 */
export async function enqueueOutcome(trx: Knex.Transaction, upload: EventData<'upload.completed.v1'>, outcome: ExtractionOutcome): Promise<void> {
  if ('deleted' in outcome) return;
  if (!outcome.ok) {
    await enqueueEvent(trx, 'upload.failed.v1', { uploadId: upload.uploadId, userId: upload.userId, reason: outcome.reason, stage: 'extraction' });
    return;
  }
  const frames = outcome.frames.map((f, frameIndex) => ({ frameIndex, timestampMs: f.timestampMs, objectKey: f.objectKey, thumbnailKey: f.thumbnailKey }));
  await enqueueEvent(trx, 'frames.extracted.v1', { uploadId: upload.uploadId, framesTotal: frames.length, frames, durationSeconds: outcome.durationSeconds });
}
