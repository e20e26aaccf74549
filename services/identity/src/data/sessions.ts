import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export interface RefreshTokenRecord {
  tokenHash: string;
  familyId: string;
  userId: string;
  expiresAt: Date;
  spentAt: Date | null;
  familyRevokedAt: Date | null;
}

export async function createFamily(db: Db, familyId: string, userId: string): Promise<void> {
  await db('refresh_sessions').insert({ family_id: familyId, user_id: userId });
}

export async function insertRefreshToken(db: Db, tokenHash: string, familyId: string, expiresAt: Date): Promise<void> {
  await db('refresh_tokens').insert({ token_hash: tokenHash, family_id: familyId, expires_at: expiresAt });
}

/** Reads a token with its chain, locking the token row so two refreshes of the same token are serialised. */
export async function findRefreshTokenForUpdate(trx: Knex.Transaction, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  const row = await trx('refresh_tokens as t')
    .join('refresh_sessions as s', 's.family_id', 't.family_id')
    .where('t.token_hash', tokenHash)
    .forUpdate('t')
    .first<{ token_hash: string; family_id: string; user_id: string; expires_at: Date; spent_at: Date | null; revoked_at: Date | null } | undefined>(
      't.token_hash',
      't.family_id',
      's.user_id',
      't.expires_at',
      't.spent_at',
      's.revoked_at',
    );
  if (!row) return undefined;
  return { tokenHash: row.token_hash, familyId: row.family_id, userId: row.user_id, expiresAt: row.expires_at, spentAt: row.spent_at, familyRevokedAt: row.revoked_at };
}

/** A token with its chain's owner and start (the sign-in), read without locks: the proof a caller presents. */
export interface TokenSession {
  familyId: string;
  userId: string;
  expiresAt: Date;
  spentAt: Date | null;
  familyRevokedAt: Date | null;
  /** When the chain began: the sign-in that started the session. */
  startedAt: Date;
}

export async function findTokenSession(db: Db, tokenHash: string): Promise<TokenSession | undefined> {
  const row = await db('refresh_tokens as t')
    .join('refresh_sessions as s', 's.family_id', 't.family_id')
    .where('t.token_hash', tokenHash)
    .first<{ family_id: string; user_id: string; expires_at: Date; spent_at: Date | null; revoked_at: Date | null; created_at: Date } | undefined>(
      't.family_id',
      's.user_id',
      't.expires_at',
      't.spent_at',
      's.revoked_at',
      's.created_at',
    );
  return row && { familyId: row.family_id, userId: row.user_id, expiresAt: row.expires_at, spentAt: row.spent_at, familyRevokedAt: row.revoked_at, startedAt: row.created_at };
}

/** A chain not ended (logged out, revoked): its owner and when it began (the sign-in). */
export async function findLiveFamily(db: Db, familyId: string): Promise<{ userId: string; startedAt: Date } | undefined> {
  const row = await db('refresh_sessions').where({ family_id: familyId }).whereNull('revoked_at').first<{ user_id: string; created_at: Date } | undefined>('user_id', 'created_at');
  return row && { userId: row.user_id, startedAt: row.created_at };
}

/** Whether the chain has not been ended (logged out, revoked). */
export async function isFamilyLive(db: Db, familyId: string): Promise<boolean> {
  return (await db('refresh_sessions').where({ family_id: familyId }).whereNull('revoked_at').first('family_id')) !== undefined;
}

export async function markSpent(db: Db, tokenHash: string): Promise<void> {
  await db('refresh_tokens').where({ token_hash: tokenHash }).update({ spent_at: db.fn.now() });
}

export async function revokeFamily(db: Db, familyId: string, reason: string): Promise<void> {
  await db('refresh_sessions').where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

export async function revokeUserFamilies(db: Db, userId: string, reason: string): Promise<number> {
  return db('refresh_sessions').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

/** Chains revoked after `since`, newest first. */
export async function familiesRevokedSince(db: Db, since: Date): Promise<string[]> {
  const rows = await db('refresh_sessions').where('revoked_at', '>', since).orderBy('revoked_at', 'desc').select<{ family_id: string }[]>('family_id');
  return rows.map((r) => r.family_id);
}

export async function familyOfToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db('refresh_tokens').where({ token_hash: tokenHash }).first<{ family_id: string } | undefined>('family_id');
  return row?.family_id;
}

/** Drops tokens long expired (kept a while after expiry so a late reuse is still recognised as one). */
export async function pruneExpiredRefreshTokens(db: Db, olderThan: Date): Promise<number> {
  return db('refresh_tokens').where('expires_at', '<', olderThan).delete();
}
