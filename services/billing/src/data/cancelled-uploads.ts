import type { Knex } from '@frametext/service-kit';

// Uploads the upload service cancelled (upload.cancelled.v1): no reservation may be made for them any more.

/** Remembers that the upload was cancelled (a repeat changes nothing). */
export async function recordCancelledUpload(trx: Knex.Transaction, c: { uploadId: string; userId: string; reason: string }): Promise<void> {
  await trx('cancelled_uploads').insert({ upload_id: c.uploadId, user_id: c.userId, reason: c.reason }).onConflict('upload_id').ignore();
}

export async function isCancelledUpload(db: Knex | Knex.Transaction, uploadId: string): Promise<boolean> {
  return (await db('cancelled_uploads').where({ upload_id: uploadId }).first('upload_id')) !== undefined;
}

/** Forgets cancellations made before `before`; answers how many. */
export async function forgetCancelledUploadsBefore(db: Knex, before: Date): Promise<number> {
  return db('cancelled_uploads').where('cancelled_at', '<', before).del();
}
