import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export async function insertResetToken(db: Db, tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
  await db('password_reset_tokens').insert({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt });
}

export async function findResetTokenForUpdate(trx: Knex.Transaction, tokenHash: string): Promise<{ userId: string; expiresAt: Date; usedAt: Date | null } | undefined> {
  const row = await trx('password_reset_tokens')
    .where({ token_hash: tokenHash })
    .forUpdate()
    .first<{ user_id: string; expires_at: Date; used_at: Date | null } | undefined>('user_id', 'expires_at', 'used_at');
  return row && { userId: row.user_id, expiresAt: row.expires_at, usedAt: row.used_at };
}

/** Spends every outstanding reset token of the user: one reset closes all links sent before it. */
export async function useUserResetTokens(db: Db, userId: string): Promise<void> {
  await db('password_reset_tokens').where({ user_id: userId }).whereNull('used_at').update({ used_at: db.fn.now() });
}

export async function pruneResetTokens(db: Db, olderThan: Date): Promise<number> {
  return db('password_reset_tokens').where('expires_at', '<', olderThan).delete();
}

/** Drops every reset token of the user (account deletion: no link may set a password on it again). */
export async function deleteUserResetTokens(db: Db, userId: string): Promise<number> {
  return db('password_reset_tokens').where({ user_id: userId }).delete();
}
