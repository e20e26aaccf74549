import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

/** A mailed link's token as stored: by its SHA-256 (the token itself is only in the mail), for one user, until it expires. */
export interface SingleUseToken {
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * The tokens of one kind of mailed link (e-mail confirmation, password reset), in their own table
 * (token_hash, user_id, expires_at, used_at). A token is used once: finding it locks its row until the transaction
 * ends, so two clicks on one link cannot both use it.
 */
export function singleUseTokens(table: string) {
  return {
    async insert(db: Db, tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
      await db(table).insert({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt });
    },

    async findForUpdate(trx: Knex.Transaction, tokenHash: string): Promise<SingleUseToken | undefined> {
      const row = await trx(table)
        .where({ token_hash: tokenHash })
        .forUpdate()
        .first<{ user_id: string; expires_at: Date; used_at: Date | null } | undefined>('user_id', 'expires_at', 'used_at');
      return row && { userId: row.user_id, expiresAt: row.expires_at, usedAt: row.used_at };
    },

    /** Spends every outstanding token of the user: the one used makes the links sent before it pointless. */
    async useAllOf(db: Db, userId: string): Promise<void> {
      await db(table).where({ user_id: userId }).whereNull('used_at').update({ used_at: db.fn.now() });
    },

    async prune(db: Db, olderThan: Date): Promise<number> {
      return db(table).where('expires_at', '<', olderThan).delete();
    },

    /** Drops every token of the user (account deletion: no link may act on it again). */
    async deleteAllOf(db: Db, userId: string): Promise<number> {
      return db(table).where({ user_id: userId }).delete();
    },
  };
}

/** Links mailed at sign-up that prove the address. */
export const confirmationTokens = singleUseTokens('email_confirmation_tokens');
/** Links mailed to set a new password. */
export const resetTokens = singleUseTokens('password_reset_tokens');
