import { onPrepared, type Consumer, type Knex } from '@frametext/service-kit';
import type { ExtractionContext } from '../domain/context.js';
import { extractUpload } from '../domain/extract-upload.js';
import { enqueueOcrRequest, enqueueOutcome } from '../domain/outcome-events.js';

/**
 * upload.completed.v1: extract the frames in the prepare step (ffmpeg, storage; no transaction open), asking for each
 * frame's OCR as soon as it is stored, then publish the outcome in a short inbox transaction.
 */
export function uploadCompletedConsumer(ctx: Omit<ExtractionContext, 'log'> & { db: Knex }): Consumer<'upload.completed.v1'> {
  const { db, ...extraction } = ctx;
  return onPrepared(
    'upload.completed.v1',
    (event, { log }) => extractUpload({ ...extraction, log }, event.data, (frame, frameIndex) => enqueueOcrRequest(db, event, frame, frameIndex)),
    async (event, { trx, log, prepared: outcome }) => {
      await enqueueOutcome(trx, event.data, outcome);
      log.info({ uploadId: event.data.uploadId, ok: outcome.ok, frames: outcome.ok ? outcome.frames.length : 0 }, 'upload extraction finished');
    },
  );
}
