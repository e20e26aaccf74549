import { enqueueEvent } from '@frametext/service-kit';
import { failUploadIn, lockStale } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';

/** How a start that could not finish is recorded (the person saw an error on getUploadURL and never got the id). */
export const START_FAILED = { code: 'upload/start-failed', reason: 'The upload could not be started. Please try again.' } as const;

const BATCH = 100;

/**
 * Cancels uploads still `reserving` UNFINISHED_START_AFTER_SECONDS after they were stored: the getUploadURL that
 * stored them died (or lost billing's answer) between asking billing for the hold and handing out the URLs. Each is
 * failed and upload.cancelled.v1 is written in the same transaction, so billing releases whatever it held, or refuses
 * the hold if it has not made it yet. Rows are locked with SKIP LOCKED, so replicas share the work. Returns the ids.
 */
export async function cancelUnfinishedStarts(ctx: Pick<UploadContext, 'db' | 'config' | 'logger'>, now = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - ctx.config.UNFINISHED_START_AFTER_SECONDS * 1000);
  const cancelled: string[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (trx) => {
      const stale = await lockStale(trx, 'reserving', before, BATCH);
      for (const u of stale) {
        await failUploadIn(trx, 'reserving', u.userId, u.id, START_FAILED);
        await enqueueEvent(trx, 'upload.cancelled.v1', { uploadId: u.id, userId: u.userId, reason: 'start-failed' });
      }
      return stale.map((u) => u.id);
    });
    cancelled.push(...batch);
    if (batch.length < BATCH) break;
  }
  if (cancelled.length > 0) ctx.logger.warn({ uploads: cancelled }, 'unfinished upload starts cancelled; billing releases their holds');
  return cancelled;
}
