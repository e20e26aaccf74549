import { enqueueEvent } from '@frametext/service-kit';
import { failUploadIn, lockStale } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { uploadFolder } from './object-keys.js';

export const ABANDONED_REASON = 'The upload was never completed: its files did not all arrive in time. Please upload again.';

const BATCH = 100;

/**
 * Fails uploads still `uploading` ABANDONED_AFTER_HOURS after they started, and publishes upload.cancelled.v1
 * (reason abandoned) in the same transaction, so billing releases their holds at once rather than after its own
 * RESERVATION_TTL_HOURS. Results never heard of them (no upload.completed.v1), so nobody lists them; their files
 * (whatever arrived) are removed after the commit, best effort. Rows are locked with SKIP LOCKED, so an upload that
 * uploadComplete is settling right now is left to it. Returns how many were failed.
 */
export async function failAbandonedUploads(ctx: Pick<UploadContext, 'db' | 'config' | 'logger' | 'storage'>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.ABANDONED_AFTER_HOURS * 3_600_000);
  let count = 0;
  for (;;) {
    const batch = await ctx.db.transaction(async (trx) => {
      const stale = await lockStale(trx, 'uploading', before, BATCH);
      for (const u of stale) {
        await failUploadIn(trx, 'uploading', u.userId, u.id, { code: 'upload/abandoned', reason: ABANDONED_REASON });
        await enqueueEvent(trx, 'upload.cancelled.v1', { uploadId: u.id, userId: u.userId, reason: 'abandoned' });
      }
      return stale;
    });
    for (const u of batch) {
      await ctx.storage.deletePrefix(uploadFolder(u.id)).catch((err: unknown) => ctx.logger.warn({ err, uploadId: u.id }, 'could not remove the files of an abandoned upload'));
    }
    count += batch.length;
    if (batch.length < BATCH) break;
  }
  if (count > 0) ctx.logger.info({ count }, 'abandoned uploads failed; billing releases their holds');
  return count;
}
