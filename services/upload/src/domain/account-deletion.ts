import { AppError, enqueueEvent, forgetOutboxEvents, type HandlerContext } from '@frametext/service-kit';
import type { EventData } from '@frametext/contracts';
import {
  failUploadIn,
  forgetUploadsOf,
  insertUpload,
  isDeletedUser,
  lockOpenUploads,
  lockUserAccount,
  rememberDeletedUser,
  type NewUpload,
} from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { uploadFolder } from './object-keys.js';

/** How an upload still open when its owner deleted their account is recorded. */
export const ACCOUNT_DELETED = { code: 'upload/account-deleted', reason: 'This upload was cancelled: its account has been deleted.' } as const;

/** 403, like a refused token: the SPA signs out, which is what a deleted account's session should do. */
export const accountDeleted = () => new AppError(403, 'upload/account-deleted', 'This account has been deleted.');

/**
 * Stores a new upload unless its owner has deleted their account. Their access token keeps working for up to
 * REVOCATIONS_POLL_MS after the deletion, and user.deleted.v1 may be handled here sooner: the account lock makes the
 * two meet in one order, so an upload stored first is cancelled by the deletion, and one that comes after is refused
 * (403). Answers whether it was stored (false: the user already has an upload with this id).
 */
export async function insertUploadOfLiveAccount(ctx: Pick<UploadContext, 'db'>, upload: NewUpload): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    await lockUserAccount(trx, upload.userId);
    if (await isDeletedUser(trx, upload.userId)) throw accountDeleted();
    return insertUpload(trx, upload);
  });
}

/**
 * user.deleted.v1: the person deleted their account. In the consumer's transaction, under the account lock: they are
 * remembered (new starts are refused); their uploads stop counting towards the quota and lose their names; the uploads
 * still being started or uploaded (which may hold credits) are cancelled with upload.cancelled.v1 (reason
 * account-deleted), so billing releases their holds; and the events about them this service has already sent leave
 * its outbox. After the commit, the files of the cancelled uploads are removed (the sweep of presigned keys removes
 * whatever is PUT there later, until the URLs expire). Uploaded ones are results' to delete, with their files. A
 * re-published event finds nothing open and changes nothing. Answers the ids cancelled.
 */
export async function endAccountUploads(
  ctx: Pick<UploadContext, 'storage' | 'logger'>,
  { trx, log, afterCommit }: Pick<HandlerContext, 'trx' | 'log' | 'afterCommit'>,
  data: EventData<'user.deleted.v1'>,
): Promise<string[]> {
  const userId = data.uid;
  const at = new Date(data.deletedAt);
  await lockUserAccount(trx, userId);
  await rememberDeletedUser(trx, userId, at);
  const open = await lockOpenUploads(trx, userId);
  await forgetUploadsOf(trx, userId, at);
  for (const u of open) {
    await failUploadIn(trx, u.status, userId, u.id, ACCOUNT_DELETED);
    await enqueueEvent(trx, 'upload.cancelled.v1', { uploadId: u.id, userId, reason: 'account-deleted' });
  }
  // Sent events named the uploads and their files; unsent ones (the cancels above among them) still have to go out.
  await forgetOutboxEvents(trx, { type: ['upload.completed.v1', 'upload.failed.v1', 'upload.cancelled.v1'], field: 'userId', value: userId, publishedOnly: true });

  const cancelled = open.map((u) => u.id);
  if (cancelled.length > 0) {
    afterCommit(async () => {
      for (const id of cancelled) {
        await ctx.storage.deletePrefix(uploadFolder(id)).catch((err: unknown) => ctx.logger.warn({ err, uploadId: id }, 'could not remove the files of a cancelled upload; the sweep of presigned keys will'));
      }
    });
  }
  log.info({ userId, cancelled }, 'account deleted: its open uploads are cancelled and its uploads forgotten');
  return cancelled;
}
