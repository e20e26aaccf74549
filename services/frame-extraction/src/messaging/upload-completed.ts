import { onPrepared, type Consumer } from '@frametext/service-kit';
import type { ExtractionContext } from '../domain/context.js';
import { extractUpload } from '../domain/extract-upload.js';
import { enqueueOutcome } from '../domain/outcome-events.js';

/**
 * upload.completed.v1: extract the frames in the prepare step (ffmpeg, storage; no transaction open), then publish the
 * outcome in a short inbox transaction.
 */
export function uploadCompletedConsumer(ctx: Omit<ExtractionContext, 'log'>): Consumer<'upload.completed.v1'> {
  return onPrepared(
    'upload.completed.v1',
    (event, { log }) => extractUpload({ ...ctx, log }, event.data),
    async (event, { trx, log, prepared: outcome }) => {
      await enqueueOutcome(trx, event.data, outcome);
      log.info({ uploadId: event.data.uploadId, ok: outcome.ok, frames: outcome.ok ? outcome.frames.length : 0 }, 'upload extraction finished');
    },
  );
}
