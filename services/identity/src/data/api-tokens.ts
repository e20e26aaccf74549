import type { ApiTokenScope } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export interface ApiTokenRow {
  id: string;
  userId: string;
  name: string;
  scope: ApiTokenScope;
  secretHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface Row {
  id: string;
  user_id: string;
  name: string;
  scope: ApiTokenScope;
  secret_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toToken = (r: Row): ApiTokenRow => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  scope: r.scope,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export async function insertApiToken(db: Db, token: { id: string; userId: string; name: string; scope: ApiTokenScope; secretHash: string }): Promise<ApiTokenRow> {
  const [row] = await db<Row>('api_tokens')
    .insert({ id: token.id, user_id: token.userId, name: token.name, scope: token.scope, secret_hash: token.secretHash })
    .returning('*');
  return toToken(row as Row);
}

export async function countLiveApiTokens(db: Db, userId: string): Promise<number> {
  const row = await db('api_tokens').where({ user_id: userId }).whereNull('revoked_at').count<{ count: string }[]>('id as count').first();
  return Number(row?.count ?? 0);
}

/** A person's live tokens, newest first. */
export async function liveApiTokensOf(db: Db, userId: string): Promise<ApiTokenRow[]> {
  const rows = await db<Row>('api_tokens').where({ user_id: userId }).whereNull('revoked_at').orderBy('created_at', 'desc').orderBy('id');
  return rows.map(toToken);
}

export async function findApiToken(db: Db, id: string): Promise<ApiTokenRow | undefined> {
  const row = await db<Row>('api_tokens').where({ id }).first();
  return row && toToken(row);
}

/** Revokes one live token of `userId`; answers whether there was one to revoke. */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<boolean> {
  const count = await db('api_tokens').where({ id, user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  return count > 0;
}

export async function revokeUserApiTokens(db: Db, userId: string): Promise<number> {
  return db('api_tokens').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

/** Records a use, at most once a minute per token (every request would otherwise be a write). */
export async function touchApiToken(db: Db, id: string): Promise<void> {
  await db('api_tokens')
    .where({ id })
    .where((q) => q.whereNull('last_used_at').orWhereRaw(`last_used_at < now() - interval '1 minute'`))
    .update({ last_used_at: db.fn.now() });
}

/** Tokens revoked after `since`, newest first (the revocation feed lists them with the ended sessions). */
export async function apiTokensRevokedSince(db: Db, since: Date): Promise<string[]> {
  const rows = await db('api_tokens').where('revoked_at', '>', since).orderBy('revoked_at', 'desc').select<{ id: string }[]>('id');
  return rows.map((r) => r.id);
}

export async function pruneRevokedApiTokens(db: Db, before: Date): Promise<number> {
  return db('api_tokens').where('revoked_at', '<', before).delete();
}
