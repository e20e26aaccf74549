import type { Knex } from '@frametext/service-kit';

/** Remembers that a person deleted their account; answers false when it was already known (a re-published event). */
export async function rememberDeletedUser(trx: Knex.Transaction, userId: string, deletedAt: Date): Promise<boolean> {
  const rows = await trx('deleted_users').insert({ user_id: userId, deleted_at: deletedAt }).onConflict('user_id').ignore().returning('user_id');
  return rows.length > 0;
}

export async function isDeletedUser(db: Knex | Knex.Transaction, userId: string): Promise<boolean> {
  return (await db('deleted_users').where({ user_id: userId }).first('user_id')) !== undefined;
}
