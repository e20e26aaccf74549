import type { Knex } from '@frametext/service-kit';

/** Remembers that `userId` deleted the upload (or retention did), so its address can say so to them. */
export async function rememberDeletedUpload(trx: Knex.Transaction, uploadId: string, userId: string): Promise<void> {
  await trx('deleted_uploads').insert({ upload_id: uploadId, user_id: userId }).onConflict('upload_id').ignore();
}

/** Whether `userId` owned the upload and it was deleted. */
export async function wasDeletedBy(db: Knex | Knex.Transaction, uploadId: string, userId: string): Promise<boolean> {
  return (await db('deleted_uploads').where({ upload_id: uploadId, user_id: userId }).first('upload_id')) !== undefined;
}

/** The uploads among `ids` that `userId` deleted. */
export async function deletedAmong(db: Knex | Knex.Transaction, userId: string, ids: readonly string[]): Promise<string[]> {
  return db('deleted_uploads').where({ user_id: userId }).whereIn('upload_id', [...ids]).pluck('upload_id');
}

/** The person deleted their account: nothing of theirs is kept, not even which uploads they deleted. */
export async function forgetDeletedUploadsOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('deleted_uploads').where({ user_id: userId }).del();
}
