import { deleteDeliveriesAbout, deleteWebhooksOf } from '../data/webhooks.js';
import { forgetTestSendsOf } from '../data/webhook-test-sends.js';
import { DEMO_UPLOAD_ID, type DeleteUploadsResponse, type EventData } from '@frametext/contracts';
import { enqueueEvent, type Knex } from '@frametext/service-kit';
import { deletedAmong, forgetDeletedUploadsOf, rememberDeletedUpload } from '../data/deleted-uploads.js';
import { rememberDeletedUser } from '../data/deleted-users.js';
import { forgetKeptWorkOf } from '../data/kept-work.js';
import { claimDuePurges, dropPurge, markDeleted, reschedulePurge } from '../data/purges.js';
import { countReadFrames, deleteUploadRow, lockCreatedBefore, lockOwnedUploads, lockUpload, lockUploadsOf, ownedAmong, type UploadOwner } from '../data/uploads.js';
import { uploadFolder, type ResultsContext } from './context.js';
import type { HandlerScope } from './pipeline.js';

const BATCH = 100;

/*
 * Deleting an upload, by its owner or by retention, in one transaction per batch: each row (frames and results
 * cascade) gives way to a tombstone due for a purge, and upload.deleted.v1 goes out through the outbox with the frames
 * read so far: billing charges those and releases the rest, and frame-extraction and the OCR workers stop the
 * upload's work. The tombstone makes the upload's late events (a frame read in flight) change nothing. Its folder is emptied right after the commit, and the
 * purge job empties it again while the tombstone lasts, since a worker still running may write frames after it.
 */

async function deleteIn(trx: Knex.Transaction, uploads: readonly UploadOwner[], remember: boolean): Promise<void> {
  for (const u of uploads) {
    await markDeleted(trx, u.id);
    // Its owner's link to it then says it was deleted (410), not that it never was.
    if (remember && u.user_id) await rememberDeletedUpload(trx, u.id, u.user_id);
    const framesRead = await countReadFrames(trx, u.id);
    await deleteUploadRow(trx, u.id);
    // Its webhook deliveries go with it: a failure's reason may quote a file name.
    if (u.user_id) await deleteDeliveriesAbout(trx, u.user_id, u.id);
    // An upload nobody owns yet (only frames arrived, never upload.completed.v1) has no hold anyone could name.
    if (u.user_id) await enqueueEvent(trx, 'upload.deleted.v1', { uploadId: u.id, userId: u.user_id, framesRead });
  }
}

/** Empties the folders of uploads just deleted, now rather than at the next purge pass; a failure is left to that pass. */
async function purgeNow(ctx: ResultsContext, ids: readonly string[]): Promise<void> {
  const next = new Date(Date.now() + ctx.config.PURGE_REPEAT_MINUTES * 60_000);
  for (const id of ids) {
    try {
      await ctx.storage.deletePrefix(uploadFolder(id));
      await reschedulePurge(ctx.db, id, next);
    } catch (err) {
      ctx.logger.warn({ err, uploadId: id }, 'could not remove the files of a deleted upload yet; the purge job will');
    }
  }
}

/**
 * The caller's uploads among `ids` that results has not heard of, as the upload service deletes them: those never
 * completed it cancels itself (billing releases their holds at once); those completed a moment ago, whose event is on
 * its way here, it names, for results to delete. Nothing is asked when results knows every id.
 */
async function unfinishedElsewhere(ctx: ResultsContext, caller: { userId: string; token: string }, ids: string[]) {
  const known = new Set([...(await ownedAmong(ctx.db, caller.userId, ids)), ...(await deletedAmong(ctx.db, caller.userId, ids))]);
  const rest = ids.filter((id) => !known.has(id));
  return rest.length > 0 ? ctx.uploadService.deleteUnfinished(rest, caller.token) : { cancelled: [], settled: [] };
}

/**
 * Locks uploads completed a moment ago whose upload.completed.v1 may not have come yet, for their owner (the upload
 * service vouched for them): the row, empty if need be, so that event and this delete apply one after the other.
 */
async function lockArriving(trx: Knex.Transaction, userId: string, ids: readonly string[]): Promise<UploadOwner[]> {
  const locked: UploadOwner[] = [];
  for (const id of ids) {
    const row = await lockUpload(trx, id);
    if (row && (row.user_id === null || row.user_id === userId)) locked.push({ id, user_id: userId });
  }
  return locked;
}

/**
 * Deletes the caller's uploads among `ids`; ids of others and unknown ids are skipped (and not listed). Uploads results
 * has not heard of are the upload service's: one never completed is cancelled there (its hold released at once), one
 * completed a moment ago is deleted here before its event arrives. When the upload service cannot answer, nothing is
 * deleted (503), so a retry does it all.
 */
export async function deleteUploads(ctx: ResultsContext, caller: { userId: string; token: string }, ids: readonly string[]): Promise<DeleteUploadsResponse> {
  const { userId } = caller;
  const wanted = [...new Set(ids)];
  const elsewhere = await unfinishedElsewhere(ctx, caller, wanted);
  const deleted = await ctx.db.transaction(async (trx) => {
    const mine = await lockOwnedUploads(trx, userId, wanted);
    const arriving = await lockArriving(trx, userId, elsewhere.settled.filter((id) => !mine.some((u) => u.id === id)));
    await deleteIn(trx, [...mine, ...arriving], true);
    // Never completed, they reach nobody's list; their owner's link to them says they were deleted (410).
    for (const id of elsewhere.cancelled) await rememberDeletedUpload(trx, id, userId);
    return [...mine, ...arriving].map((u) => u.id);
  });
  await purgeNow(ctx, deleted);
  const all = [...deleted, ...elsewhere.cancelled];
  if (all.length > 0) ctx.logger.info({ userId, uploads: deleted, cancelledUnfinished: elsewhere.cancelled }, 'uploads deleted');
  return { data: { deleted: all } };
}

/**
 * user.deleted.v1: the person deleted their account. Every upload of theirs goes exactly as deleteUploads removes it
 * (tombstone, row, one upload.deleted.v1 each so billing releases what is still held, the folder emptied after the
 * commit and again by the purge job), in the consumer's transaction. The person is remembered, so an upload of theirs
 * that arrives later (completed a moment before the deletion) is deleted on arrival (`deleteOnArrival`). A re-published
 * event finds nothing left to delete. Their webhooks go too, with their deliveries. Answers the upload ids deleted.
 */
export async function deleteAccountUploads(ctx: ResultsContext, scope: HandlerScope, data: EventData<'user.deleted.v1'>): Promise<string[]> {
  const firstTime = await rememberDeletedUser(scope.trx, data.uid, new Date(data.deletedAt));
  const uploads = await lockUploadsOf(scope.trx, data.uid);
  await deleteIn(scope.trx, uploads, false);
  await forgetDeletedUploadsOf(scope.trx, data.uid);
  // Their work on their own uploads went with the uploads; their work on the demo goes now.
  await forgetKeptWorkOf(scope.trx, data.uid);
  await deleteWebhooksOf(scope.trx, data.uid);
  await forgetTestSendsOf(scope.trx, data.uid);
  const ids = uploads.map((u) => u.id);
  if (ids.length > 0) scope.afterCommit(() => purgeNow(ctx, ids));
  scope.log.info({ userId: data.uid, uploads: ids, firstTime }, 'account deleted: its uploads are deleted');
  return ids;
}

/**
 * An upload whose owner has deleted their account reached results (its upload.completed.v1 was on its way): it is
 * deleted at once, as the account's other uploads were, so nobody's list shows it and billing releases its hold. Call
 * it with the upload's row locked.
 */
export async function deleteOnArrival(ctx: ResultsContext, scope: HandlerScope, upload: UploadOwner & { user_id: string }): Promise<void> {
  await deleteIn(scope.trx, [upload], false);
  scope.afterCommit(() => purgeNow(ctx, [upload.id]));
  scope.log.info({ uploadId: upload.id, userId: upload.user_id }, 'upload of a deleted account arrived; deleted');
}

/** Deletes uploads (rows and files) created more than RETENTION_DAYS before `now`, as their owners would; the demo stays. */
export async function runRetention(ctx: ResultsContext, now: Date = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - ctx.config.RETENTION_DAYS * 86_400_000);
  const removed: string[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (trx) => {
      const old = await lockCreatedBefore(trx, cutoff, [DEMO_UPLOAD_ID], BATCH);
      await deleteIn(trx, old, true);
      return old.map((u) => u.id);
    });
    await purgeNow(ctx, batch);
    removed.push(...batch);
    if (batch.length < BATCH) break;
  }
  if (removed.length > 0) ctx.logger.info({ count: removed.length, cutoff: cutoff.toISOString() }, 'retention: old uploads deleted');
  return removed;
}

/**
 * The purge job: empties the folder of every deleted or failed upload whose purge is due at `now`, then schedules
 * the next pass PURGE_REPEAT_MINUTES later; once a purge is older than PURGE_WINDOW_HOURS its last pass drops it (and,
 * for a deleted upload, its tombstone). Files are removed outside any transaction; a folder that cannot be emptied is
 * tried again at the next run. Returns how many folders were emptied.
 */
export async function purgeStoredFiles(ctx: ResultsContext, now: Date = new Date()): Promise<number> {
  const next = new Date(now.getTime() + ctx.config.PURGE_REPEAT_MINUTES * 60_000);
  const windowStart = new Date(now.getTime() - ctx.config.PURGE_WINDOW_HOURS * 3_600_000);
  let purged = 0;
  for (;;) {
    const due = await claimDuePurges(ctx.db, now, next, BATCH);
    for (const p of due) {
      try {
        await ctx.storage.deletePrefix(uploadFolder(p.uploadId));
        purged += 1;
      } catch (err) {
        ctx.logger.warn({ err, uploadId: p.uploadId, kind: p.kind }, 'could not remove an upload\'s files; trying again at the next run');
        await reschedulePurge(ctx.db, p.uploadId, new Date(now.getTime() + ctx.config.PURGE_INTERVAL_MS));
        continue;
      }
      if (p.createdAt <= windowStart) await dropPurge(ctx.db, p.uploadId, windowStart);
    }
    if (due.length < BATCH) return purged;
  }
}
