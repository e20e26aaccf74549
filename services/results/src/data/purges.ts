import type { Knex } from '@frametext/service-kit';

/**
 * Uploads whose stored files are being removed. `deleted`: the upload is gone, and this row is its tombstone (its
 * late events are ignored); `failed`: the row stays, with its reason. See migration 0002.
 */
export type PurgeKind = 'deleted' | 'failed';

export interface DuePurge {
  uploadId: string;
  kind: PurgeKind;
  createdAt: Date;
}

/** The upload was deleted: its tombstone, due for a purge now. Replaces a failed upload's purge (and restarts its window). */
export async function markDeleted(trx: Knex.Transaction, uploadId: string): Promise<void> {
  await trx('purges')
    .insert({ upload_id: uploadId, kind: 'deleted' })
    .onConflict('upload_id')
    .merge({ kind: 'deleted', created_at: trx.fn.now(), next_purge_at: trx.fn.now() });
}

/** The upload failed: its files are due for a purge now. Nothing changes for an upload already purging. */
export async function purgeFailed(trx: Knex.Transaction, uploadId: string): Promise<void> {
  await trx('purges').insert({ upload_id: uploadId, kind: 'failed' }).onConflict('upload_id').ignore();
}

/** Whether the upload was deleted (its tombstone is still kept). */
export async function isDeleted(db: Knex | Knex.Transaction, uploadId: string): Promise<boolean> {
  return (await db('purges').where({ upload_id: uploadId, kind: 'deleted' }).first('upload_id')) !== undefined;
}

/**
 * Claims up to `limit` purges due at `now` by moving them to `next`, in one short statement (SKIP LOCKED, so
 * replicas share them); the files are then removed outside any transaction.
 */
export async function claimDuePurges(db: Knex, now: Date, next: Date, limit: number): Promise<DuePurge[]> {
  const rows = await db('purges')
    .whereIn('upload_id', db('purges').select('upload_id').where('next_purge_at', '<=', now).orderBy('next_purge_at').limit(limit).forUpdate().skipLocked())
    .update({ next_purge_at: next })
    .returning<{ upload_id: string; kind: PurgeKind; created_at: Date }[]>(['upload_id', 'kind', 'created_at']);
  return rows.map((r) => ({ uploadId: r.upload_id, kind: r.kind, createdAt: r.created_at }));
}

export async function reschedulePurge(db: Knex, uploadId: string, at: Date): Promise<void> {
  await db('purges').where({ upload_id: uploadId }).update({ next_purge_at: at });
}

/** The purge's window is over: the row (and, for a deleted upload, its tombstone) goes, unless it was renewed since `startedBefore`. */
export async function dropPurge(db: Knex, uploadId: string, startedBefore: Date): Promise<void> {
  await db('purges').where({ upload_id: uploadId }).andWhere('created_at', '<=', startedBefore).del();
}
