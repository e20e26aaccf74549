import { enqueueEvent } from '@frametext/service-kit';
import type { DeleteUnfinishedUploadsResponse } from '@frametext/contracts';
import { failUploadIn, lockUploadsAmong, markDeleted } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { uploadFolder } from './object-keys.js';

/** How an upload its owner deleted before completing it is recorded; uploadComplete then answers 410 with it. */
export const DELETED_BEFORE_COMPLETION = { code: 'upload/deleted', reason: 'This upload was deleted before it was completed.' } as const;

/**
 * results' deleteUploads for the ids it has no upload of (POST /internal/deleted-uploads). Among the caller's uploads:
 * - one still `uploading` (started, maybe PUT, never completed) or `downloading` (a video by link) is failed (`upload/deleted`), stops counting towards
 *   the quota and writes upload.cancelled.v1 (reason deleted) in the same transaction, so billing releases its hold at
 *   once instead of after ABANDONED_AFTER_HOURS; its files are removed after the commit (the sweep of presigned keys
 *   removes whatever is PUT there later);
 * - one uploadComplete has settled (uploaded or failed) and not yet deleted is named, for results to delete on its
 *   side: its event may still be on the way there.
 * Rows are locked, so an uploadComplete settling one right now finishes first and the upload is named as settled.
 * Others' ids, unknown ids, local runs and starts still reserving are left out.
 */
export async function deleteUnfinishedUploads(ctx: Pick<UploadContext, 'db' | 'storage' | 'logger'>, userId: string, ids: readonly string[]): Promise<DeleteUnfinishedUploadsResponse> {
  const answer = await ctx.db.transaction(async (trx) => {
    const cancelled: string[] = [];
    const settled: string[] = [];
    for (const u of await lockUploadsAmong(trx, userId, ids)) {
      if (u.kind === 'local' || u.deletedAt) continue;
      if (u.status === 'uploading' || u.status === 'downloading') {
        // A video by link being fetched: its fetch sees the upload is no longer downloading and stops.
        await failUploadIn(trx, u.status, userId, u.id, DELETED_BEFORE_COMPLETION);
        await markDeleted(trx, userId, [u.id], new Date());
        await enqueueEvent(trx, 'upload.cancelled.v1', { uploadId: u.id, userId, reason: 'deleted' });
        cancelled.push(u.id);
      } else if (u.status === 'uploaded' || u.status === 'failed') {
        settled.push(u.id);
      }
    }
    return { cancelled, settled };
  });
  for (const id of answer.cancelled) {
    await ctx.storage.deletePrefix(uploadFolder(id)).catch((err: unknown) => ctx.logger.warn({ err, uploadId: id }, 'could not remove the files of a deleted upload; the sweep of presigned keys will'));
  }
  if (answer.cancelled.length > 0) ctx.logger.info({ userId, cancelled: answer.cancelled }, 'uploads deleted before completion; billing releases their holds');
  return answer;
}
