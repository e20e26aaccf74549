import { forgetOutboxEvents } from '../bus/outbox.js';
import type { Knex, Migration } from '../db/index.js';

/*
 * Uploads whose work stops because they were deleted (upload.deleted.v1), kept by each worker service (frame
 * extraction, OCR) in its own schema. A table rather than a replica's memory: every replica looks before each frame,
 * one started later still knows, and a deletion that overtakes its upload's first message counts all the same.
 */

/** The worker's table of cancelled uploads; add it to the service's migrations. */
export const cancelledUploadsMigration: Migration = {
  name: '0100_kit_cancelled_uploads',
  async up(db) {
    await db.schema.createTable('cancelled_uploads', (t) => {
      t.string('upload_id', 128).primary();
      t.timestamp('cancelled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw('create index cancelled_uploads_by_age on cancelled_uploads (cancelled_at)');
  },
};

/** How long a cancellation is kept: far longer than a deleted upload's frames can wait in a queue. */
export const CANCELLED_UPLOAD_MEMORY_DAYS = 7;

/**
 * Recording a cancellation and publishing an upload's work meet on the advisory lock (CANCEL_LOCK_CLASS,
 * hashtext(upload id)), one upload at a time. Exported for tests that hold it to pause an upload's work.
 */
export const CANCEL_LOCK_CLASS = 0x434e434c; // "CNCL"

/** Thrown where a frame would be taken or read for an upload that was cancelled meanwhile. */
export class UploadCancelledError extends Error {
  constructor(readonly uploadId: string) {
    super(`upload ${uploadId} was deleted; its work stops`);
    this.name = 'UploadCancelledError';
  }
}

/**
 * Records that the upload's work stops (a repeat changes nothing), and forgets cancellations older than
 * CANCELLED_UPLOAD_MEMORY_DAYS. Answers whether it was new.
 *
 * The worker's outbox rows about the upload go too, sent or not: they hold its text and file names, and nobody needs
 * them any more (results keeps a deleted upload's tombstone, and billing settles it by the frames results counted).
 */
export async function recordCancelledUpload(trx: Knex.Transaction, uploadId: string): Promise<boolean> {
  await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]);
  await forgetOutboxEvents(trx, { field: 'uploadId', value: uploadId });
  const inserted = await trx('cancelled_uploads').insert({ upload_id: uploadId }).onConflict('upload_id').ignore().returning('upload_id');
  await trx('cancelled_uploads').whereRaw(`cancelled_at < now() - make_interval(days => ?)`, [CANCELLED_UPLOAD_MEMORY_DAYS]).del();
  return inserted.length > 0;
}

/** A quick look before taking or reading a frame (no transaction needed). */
export async function isUploadCancelled(db: Knex | Knex.Transaction, uploadId: string): Promise<boolean> {
  return (await db('cancelled_uploads').where({ upload_id: uploadId }).first('upload_id')) !== undefined;
}

/** Throws UploadCancelledError when the upload was cancelled. */
export async function stopIfCancelled(db: Knex | Knex.Transaction, uploadId: string): Promise<void> {
  if (await isUploadCancelled(db, uploadId)) throw new UploadCancelledError(uploadId);
}

/**
 * stopIfCancelled for a look taken often (before each Tesseract read of each frame): an answer that the upload goes on
 * holds for `freshMs`, so a deletion stops the work within that time and a Tesseract process does not sit idle on a
 * query before every image. What is published is still decided in the publishing transaction (cancelledBeforeCommit).
 * Remembers the last `max` uploads; a failed look (the database unreachable) is not remembered.
 */
export function cancellationLookout(db: Knex, freshMs = 1000, max = 256): (uploadId: string) => Promise<void> {
  const looks = new Map<string, { at: number; look: Promise<void> }>();
  return (uploadId) => {
    const now = Date.now();
    const last = looks.get(uploadId);
    if (last && now - last.at < freshMs) return last.look;
    const look = stopIfCancelled(db, uploadId);
    looks.delete(uploadId);
    looks.set(uploadId, { at: now, look });
    if (looks.size > max) looks.delete(looks.keys().next().value!);
    look.catch((err: unknown) => {
      if (!(err instanceof UploadCancelledError) && looks.get(uploadId)?.look === look) looks.delete(uploadId);
    });
    return look;
  };
}

/**
 * The look to take in the transaction that would publish the upload's work (an OCR request, a frame's text): it waits
 * for a cancellation being recorded right now, so once a cancellation is visible, nothing more of the upload is
 * published.
 */
export async function cancelledBeforeCommit(trx: Knex.Transaction, uploadId: string): Promise<boolean> {
  await trx.raw('select pg_advisory_xact_lock_shared(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]);
  return isUploadCancelled(trx, uploadId);
}

/** What a worker's slow step came to: its value, or nothing because the upload was cancelled before or while it ran. */
export type UnlessCancelled<T> = { cancelled: true } | { cancelled: false; value: T };

/**
 * Runs `work` (reading a frame) unless the upload was cancelled; work stopped by UploadCancelledError (a check made
 * as it went) counts as cancelled too.
 */
export async function unlessCancelled<T>(db: Knex, uploadId: string, work: () => Promise<T>): Promise<UnlessCancelled<T>> {
  if (await isUploadCancelled(db, uploadId)) return { cancelled: true };
  try {
    return { cancelled: false, value: await work() };
  } catch (err) {
    if (err instanceof UploadCancelledError) return { cancelled: true };
    throw err;
  }
}
