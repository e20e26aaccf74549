import { failUploadingBefore } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';

export const ABANDONED_REASON = 'The upload was never completed: its files did not all arrive within a day. Please upload again.';

/**
 * Marks uploads still `uploading` after ABANDONED_AFTER_HOURS as failed. No event: nothing downstream knows them,
 * and billing's own sweep releases reservations never confirmed by upload.completed.v1.
 */
export async function failAbandonedUploads(ctx: Pick<UploadContext, 'db' | 'config' | 'logger'>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.ABANDONED_AFTER_HOURS * 3_600_000);
  const count = await failUploadingBefore(ctx.db, before, { code: 'upload/abandoned', reason: ABANDONED_REASON });
  if (count > 0) ctx.logger.info({ count }, 'abandoned uploads marked failed');
  return count;
}
