import type { KeptWorkView } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

/** A row of `kept_work`: one person's work in one view of one upload. */
export interface KeptWorkRow {
  upload_id: string;
  user_id: string;
  view: KeptWorkView;
  revision: number;
  document: unknown;
  updated_at: Date;
}

export interface KeptWorkKey {
  uploadId: string;
  userId: string;
  view: KeptWorkView;
}

const where = (k: KeptWorkKey) => ({ upload_id: k.uploadId, user_id: k.userId, view: k.view });

export async function findKeptWork(db: Knex, key: KeptWorkKey): Promise<KeptWorkRow | undefined> {
  return db<KeptWorkRow>('kept_work').where(where(key)).first();
}

/**
 * Stores the document as the revision after `basedOn`, only if the stored revision is still `basedOn` (0: nothing
 * stored yet). Answers the new row, or undefined when another save came first.
 */
export async function saveKeptWorkIf(db: Knex, key: KeptWorkKey, basedOn: number, document: unknown): Promise<KeptWorkRow | undefined> {
  const json = JSON.stringify(document);
  if (basedOn === 0) {
    const rows = await db<KeptWorkRow>('kept_work')
      .insert({ ...where(key), revision: 1, document: db.raw('?::jsonb', [json]) as unknown })
      .onConflict(['upload_id', 'user_id', 'view'])
      .ignore()
      .returning('*');
    return rows[0];
  }
  const rows = await db<KeptWorkRow>('kept_work')
    .where({ ...where(key), revision: basedOn })
    .update({ revision: basedOn + 1, document: db.raw('?::jsonb', [json]) as unknown, updated_at: db.fn.now() as unknown as Date })
    .returning('*');
  return rows[0];
}

/** The person deleted their account: their work on uploads that are not theirs (the demo) goes too. */
export async function forgetKeptWorkOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('kept_work').where({ user_id: userId }).del();
}
