import { onPrepared, stopIfCancelled, type Consumer, type Knex } from '@frametext/service-kit';
import type { ExtractionContext } from '../domain/context.js';
import { extractUpload } from '../domain/extract-upload.js';
import { enqueueOcrRequest, enqueueOutcome } from '../domain/outcome-events.js';

/**
 * upload.completed.v1: extract the frames in the prepare step (ffmpeg, storage; no transaction open), asking for each
 * frame's OCR as soon as it is stored, then publish the outcome in a short inbox transaction. Before each frame the
 * upload's deletion is looked for (upload-deleted.ts records it): a deleted upload's work stops there.
 */
export function uploadCompletedConsumer(ctx: Omit<ExtractionContext, 'log' | 'stopIfDeleted'> & { db: Knex }): Consumer<'upload.completed.v1'> {
  const { db, ...extraction } = ctx;
  return onPrepared(
    'upload.completed.v1',
    (event, { log }) => {
      const stopIfDeleted = () => stopIfCancelled(db, event.data.uploadId);
      return extractUpload({ ...extraction, log, stopIfDeleted }, event.data, (frame, frameIndex) => enqueueOcrRequest(db, event, frame, frameIndex));
    },
    async (event, { trx, log, prepared: outcome }) => {
      await enqueueOutcome(trx, event.data, outcome);
      if ('deleted' in outcome) log.info({ uploadId: event.data.uploadId, framesStored: outcome.framesStored }, 'upload deleted: extraction stopped');
      else log.info({ uploadId: event.data.uploadId, ok: outcome.ok, frames: outcome.ok ? outcome.frames.length : 0 }, 'upload extraction finished');
    },
  );
}
