import type { Knex } from '@frametext/service-kit';

export interface User {
  uid: string;
  email: string;
  passwordHash: string | null;
  disabled: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  googleSub: string | null;
  /** When the e-mail address was proven (confirmation link or Google); null until then. */
  emailConfirmedAt: Date | null;
}

interface UserRow {
  uid: string;
  email: string;
  password_hash: string | null;
  disabled: boolean;
  created_at: Date;
  last_login_at: Date | null;
  google_sub: string | null;
  email_confirmed_at: Date | null;
}

const toUser = (r: UserRow): User => ({
  uid: r.uid,
  email: r.email,
  passwordHash: r.password_hash,
  disabled: r.disabled,
  createdAt: r.created_at,
  lastLoginAt: r.last_login_at,
  googleSub: r.google_sub,
  emailConfirmedAt: r.email_confirmed_at,
});

type Db = Knex | Knex.Transaction;

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const row = await db<UserRow>('users').where({ email }).first();
  return row && toUser(row);
}

export async function findUserByGoogleSub(db: Db, sub: string): Promise<User | undefined> {
  const row = await db<UserRow>('users').where({ google_sub: sub }).first();
  return row && toUser(row);
}

/** A live account by id; a deleted one reads as missing. (By e-mail or Google subject it cannot match: both are erased.) */
export async function findUserById(db: Db, uid: string): Promise<User | undefined> {
  const row = await db<UserRow>('users').where({ uid }).whereNull('deleted_at').first();
  return row && toUser(row);
}

/**
 * Locks a live account's row until the transaction ends: `update` to delete it, `share` to start a session on it,
 * so a session is never started on an account deleted meanwhile (the delete waits for the session and revokes it,
 * or the session finds the account gone). Undefined when the account is deleted.
 */
export async function lockLiveUser(trx: Knex.Transaction, uid: string, mode: 'update' | 'share'): Promise<User | undefined> {
  const query = trx<UserRow>('users').where({ uid }).whereNull('deleted_at').first();
  const row = (await (mode === 'update' ? query.forUpdate() : query.forShare())) as UserRow | undefined;
  return row && toUser(row);
}

/**
 * Erases an account's personal data and marks it deleted; the row stays as an anonymous tombstone while its sessions
 * are listed in the revocation feed. Answers the time of deletion.
 */
export async function eraseUser(trx: Knex.Transaction, uid: string): Promise<Date> {
  const [row] = await trx('users')
    .where({ uid })
    .update({ email: null, password_hash: null, google_sub: null, last_login_at: null, deleted_at: trx.fn.now() })
    .returning<{ deleted_at: Date }[]>('deleted_at');
  return row!.deleted_at;
}

/** Removes tombstones of accounts deleted before `before`, and their sessions and tokens with them (cascade). */
export async function pruneDeletedUsers(db: Db, before: Date): Promise<number> {
  return db('users').where('deleted_at', '<', before).delete();
}

/** Inserts a user; answers undefined when the e-mail (or Google subject) is already taken. */
export async function insertUser(db: Db, user: { uid: string; email: string; passwordHash: string | null; googleSub?: string | null }): Promise<User | undefined> {
  const rows = await db<UserRow>('users')
    .insert({ uid: user.uid, email: user.email, password_hash: user.passwordHash, google_sub: user.googleSub ?? null })
    .onConflict()
    .ignore()
    .returning('*');
  const row = rows[0];
  return row && toUser(row as UserRow);
}

/** Records a log-in; answers the previous last_login_at (null on the first log-in). */
export async function recordLogin(db: Db, uid: string): Promise<Date | null> {
  const result = await db.raw<{ rows: { previous: Date | null }[] }>(
    `update users u set last_login_at = now() from (select uid, last_login_at as previous from users where uid = ? and deleted_at is null for update) p
     where u.uid = p.uid returning p.previous`,
    [uid],
  );
  return result.rows[0]?.previous ?? null;
}

export async function setPasswordHash(db: Db, uid: string, passwordHash: string): Promise<void> {
  await db('users').where({ uid }).update({ password_hash: passwordHash });
}

/** Links a Google subject and drops any password set before the address was proven. */
export async function linkGoogleSub(db: Db, uid: string, sub: string): Promise<void> {
  await db('users').where({ uid }).update({ google_sub: sub, password_hash: null });
}

/** Marks a live account's address as proven; answers the time, or null when it was proven already (nothing changed). */
export async function markEmailConfirmed(trx: Knex.Transaction, uid: string): Promise<Date | null> {
  const [row] = await trx('users')
    .where({ uid })
    .whereNull('deleted_at')
    .whereNull('email_confirmed_at')
    .update({ email_confirmed_at: trx.fn.now() })
    .returning<{ email_confirmed_at: Date }[]>('email_confirmed_at');
  return row?.email_confirmed_at ?? null;
}
