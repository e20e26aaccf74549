import { AppError, forgetOutboxEvents, type Knex } from '@frametext/service-kit';
import { formatBytes, type EventType, type UploadRequest } from '@frametext/contracts';
import { countedUploads, eraseUploadNames, markDeleted, promisedBytes, storedBytes } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';

/*
 * Each user's live uploads may hold STORAGE_QUOTA_BYTES of source files. getUploadURL judges by what the client
 * declares (its files' sizes) on top of what is stored and what open uploads declared; uploadComplete judges by the
 * bytes actually sealed on top of what is stored, and fails an upload that does not fit (its credits come back
 * through upload.failed.v1, its objects are deleted). Failed uploads, local runs and deleted uploads count nothing.
 */

export const QUOTA_EXCEEDED = 'upload/quota-exceeded';

/** The events this service sends about one upload (`uploadId` in their data). */
const SENT_ABOUT_AN_UPLOAD: EventType[] = ['upload.completed.v1', 'upload.failed.v1', 'upload.cancelled.v1'];

/** The bytes a request says its files have, or 0 when it does not say (browser-cut frames, older clients). */
export function declaredBytes(req: UploadRequest): number {
  switch (req.kind) {
    case 'video':
      return req.size ?? 0;
    case 'photos':
      return req.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
    case 'frames':
      return 0;
  }
}

function quotaExceeded(quota: number, used: number, needed: number): AppError {
  const left = Math.max(0, quota - used);
  return new AppError(
    413,
    QUOTA_EXCEEDED,
    `This upload needs ${formatBytes(needed)} of storage, and ${formatBytes(left)} of your ${formatBytes(quota)} is left. Delete uploads you no longer need, or upload less at a time.`,
    { details: { quotaBytes: quota, usedBytes: used, neededBytes: needed } },
  );
}

/** The sentence an upload failed over quota at uploadComplete keeps (shown on the upload, sent with upload.failed.v1). */
export function overQuotaReason(quota: number, used: number, needed: number): string {
  return quotaExceeded(quota, used, needed).message;
}

/**
 * Uploads results deleted (with their objects) still count here until this service hears of it. Before refusing,
 * the uploads counted are looked up in the store: one whose sealed objects are gone is marked deleted. Answers how
 * many were. (When upload.deleted.v1 is wired to `forgetDeletedUpload`, this rarely finds anything.)
 */
export async function forgetVanishedUploads(ctx: Pick<UploadContext, 'db' | 'storage'>, userId: string, now = new Date()): Promise<number> {
  const gone: string[] = [];
  for (const upload of await countedUploads(ctx.db, userId)) {
    const first = upload.sealedKeys[0];
    if (first === undefined || (await ctx.storage.head(first)) === null) gone.push(upload.id);
  }
  return markDeleted(ctx.db, userId, gone, now);
}

/** getUploadURL: refuses (413) before anything is reserved when the declared bytes do not fit the user's quota. */
export async function assertRequestFitsQuota(ctx: Pick<UploadContext, 'db' | 'storage' | 'config'>, userId: string, declared: number): Promise<void> {
  const quota = ctx.config.STORAGE_QUOTA_BYTES;
  const used = async () => (await storedBytes(ctx.db, userId)) + (await promisedBytes(ctx.db, userId));
  let inUse = await used();
  if (inUse + declared <= quota) return;
  if ((await forgetVanishedUploads(ctx, userId)) > 0) inUse = await used();
  if (inUse + declared > quota) throw quotaExceeded(quota, inUse, declared);
}

/**
 * uploadComplete: why the sealed bytes do not fit, or undefined when they do. Call it inside the settling
 * transaction after `lockUserQuota`, so that two uploads completing at once cannot both take the last room.
 */
export async function quotaFailureReason(trx: Knex.Transaction, quota: number, userId: string, uploadId: string, bytes: number): Promise<string | undefined> {
  const stored = await storedBytes(trx, userId, uploadId);
  return stored + bytes > quota ? overQuotaReason(quota, stored, bytes) : undefined;
}

/**
 * uploadComplete, before the transaction: when the sealed bytes would not fit, first forget uploads that were
 * deleted meanwhile (store lookups stay out of the transaction).
 */
export async function makeRoomFor(ctx: Pick<UploadContext, 'db' | 'storage' | 'config'>, userId: string, uploadId: string, bytes: number): Promise<void> {
  if ((await storedBytes(ctx.db, userId, uploadId)) + bytes > ctx.config.STORAGE_QUOTA_BYTES) await forgetVanishedUploads(ctx, userId);
}

/**
 * An upload was deleted (by its owner or by retention) and its objects with it: it stops counting, its row loses its
 * names, and the events this service sent about it (its name, its files' names) leave the outbox. The upload
 * service's side of `upload.deleted.v1`: a consumer of that event calls this with the event's data. Answers whether
 * it still counted.
 */
export async function forgetDeletedUpload(ctx: Pick<UploadContext, 'db'>, deleted: { uploadId: string; userId: string }, now = new Date()): Promise<boolean> {
  const counted = (await markDeleted(ctx.db, deleted.userId, [deleted.uploadId], now)) > 0;
  await eraseUploadNames(ctx.db, deleted.userId, [deleted.uploadId]);
  await forgetOutboxEvents(ctx.db, { type: SENT_ABOUT_AN_UPLOAD, field: 'uploadId', value: deleted.uploadId, publishedOnly: true });
  return counted;
}
