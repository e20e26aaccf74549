import { on, type Consumer } from '@frametext/service-kit';
import type { ExtractionContext } from '../domain/context.js';
import { extractUpload } from '../domain/extract-upload.js';
import { enqueueOutcome } from '../domain/outcome-events.js';

/** upload.completed.v1: extract the frames, then publish the outcome in the handler's (inbox) transaction. */
export function uploadCompletedConsumer(ctx: Omit<ExtractionContext, 'log'>): Consumer<'upload.completed.v1'> {
  return on('upload.completed.v1', async (event, { trx, log }) => {
    const outcome = await extractUpload({ ...ctx, log }, event.data);
    await enqueueOutcome(trx, event.data, outcome);
    log.info({ uploadId: event.data.uploadId, ok: outcome.ok, frames: outcome.ok ? outcome.frames.length : 0 }, 'upload extraction finished');
  });
}
