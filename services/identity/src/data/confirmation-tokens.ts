import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

/** Stores a confirmation link's token by its SHA-256; the token itself is only in the mail. */
export async function insertConfirmationToken(db: Db, tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
  await db('email_confirmation_tokens').insert({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt });
}

/** The token's row, locked until the transaction ends, so two clicks on one link cannot both use it. */
export async function findConfirmationTokenForUpdate(trx: Knex.Transaction, tokenHash: string): Promise<{ userId: string; expiresAt: Date; usedAt: Date | null } | undefined> {
  const row = await trx('email_confirmation_tokens')
    .where({ token_hash: tokenHash })
    .forUpdate()
    .first<{ user_id: string; expires_at: Date; used_at: Date | null } | undefined>('user_id', 'expires_at', 'used_at');
  return row && { userId: row.user_id, expiresAt: row.expires_at, usedAt: row.used_at };
}

/** Spends every outstanding link of the user: once the address is proven, none of them is needed. */
export async function useUserConfirmationTokens(db: Db, userId: string): Promise<void> {
  await db('email_confirmation_tokens').where({ user_id: userId }).whereNull('used_at').update({ used_at: db.fn.now() });
}

export async function pruneConfirmationTokens(db: Db, olderThan: Date): Promise<number> {
  return db('email_confirmation_tokens').where('expires_at', '<', olderThan).delete();
}
