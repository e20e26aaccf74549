import { markOriginalsSwept, uploadsToSweep } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { removeObjects, sealedFolder } from './sealed-objects.js';

const BATCH = 100;

/**
 * Removes, for good, whatever sits at the presigned keys of settled uploads once their URLs have expired (plus
 * UNSEALED_SWEEP_GRACE_SECONDS for clocks that disagree), and sealed copies of calls that did not settle the
 * upload. Bytes PUT to an old URL after uploadComplete are never read by anything; this makes sure they do not stay
 * stored either. The expiry is reckoned with today's UPLOAD_URL_EXPIRY_SECONDS, which is what URLs are signed with.
 * Answers how many uploads were swept.
 */
export async function sweepOriginals(ctx: Pick<UploadContext, 'db' | 'config' | 'storage' | 'logger'>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - (ctx.config.UPLOAD_URL_EXPIRY_SECONDS + ctx.config.UNSEALED_SWEEP_GRACE_SECONDS) * 1000);
  let swept = 0;
  for (;;) {
    const uploads = await uploadsToSweep(ctx.db, before, BATCH);
    for (const upload of uploads) {
      const kept = new Set(upload.sealedKeys ?? []);
      const strays = (await ctx.storage.list(sealedFolder(upload.id))).filter((key) => !kept.has(key));
      await removeObjects(ctx, [...upload.objectKeys, ...strays]);
      await markOriginalsSwept(ctx.db, upload.userId, upload.id, now);
    }
    swept += uploads.length;
    if (uploads.length < BATCH) break;
  }
  if (swept > 0) ctx.logger.info({ count: swept }, 'presigned keys of settled uploads swept');
  return swept;
}
