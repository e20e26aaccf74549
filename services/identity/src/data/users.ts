import type { Knex } from '@frametext/service-kit';

export interface User {
  uid: string;
  email: string;
  passwordHash: string | null;
  disabled: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  googleSub: string | null;
}

interface UserRow {
  uid: string;
  email: string;
  password_hash: string | null;
  disabled: boolean;
  created_at: Date;
  last_login_at: Date | null;
  google_sub: string | null;
}

const toUser = (r: UserRow): User => ({
  uid: r.uid,
  email: r.email,
  passwordHash: r.password_hash,
  disabled: r.disabled,
  createdAt: r.created_at,
  lastLoginAt: r.last_login_at,
  googleSub: r.google_sub,
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

export async function findUserById(db: Db, uid: string): Promise<User | undefined> {
  const row = await db<UserRow>('users').where({ uid }).first();
  return row && toUser(row);
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
    `update users u set last_login_at = now() from (select uid, last_login_at as previous from users where uid = ? for update) p
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
