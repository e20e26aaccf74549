import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export interface PairFailures {
  failures: number;
  lastFailureAt: Date;
}

/** Failed log-ins of one address on one account (e-mail), since its last success there. */
export async function pairFailures(db: Db, email: string, address: string): Promise<PairFailures | undefined> {
  const row = await db('login_failures').where({ email, address }).first<{ failures: number; last_failure_at: Date } | undefined>('failures', 'last_failure_at');
  return row && { failures: row.failures, lastFailureAt: row.last_failure_at };
}

export async function addPairFailure(db: Db, email: string, address: string): Promise<void> {
  await db.raw(
    `insert into login_failures (email, address, failures, last_failure_at) values (?, ?, 1, now())
     on conflict (email, address) do update set failures = login_failures.failures + 1, last_failure_at = now()`,
    [email, address],
  );
}

export async function clearPairFailures(db: Db, email: string, address: string): Promise<void> {
  await db('login_failures').where({ email, address }).delete();
}

/** Whether the user has signed in from this address (its hash) before. */
export async function isKnownAddress(db: Db, userId: string, addressHash: string): Promise<boolean> {
  return (await db('known_login_addresses').where({ user_id: userId, address_hash: addressHash }).first('user_id')) !== undefined;
}

export async function rememberAddress(db: Db, userId: string, addressHash: string): Promise<void> {
  await db.raw(
    `insert into known_login_addresses (user_id, address_hash, last_success_at) values (?, ?, now())
     on conflict (user_id, address_hash) do update set last_success_at = now()`,
    [userId, addressHash],
  );
}

export async function pruneLoginAttempts(db: Db, failuresBefore: Date, addressesBefore: Date): Promise<void> {
  await db('login_failures').where('last_failure_at', '<', failuresBefore).delete();
  await db('known_login_addresses').where('last_success_at', '<', addressesBefore).delete();
}

/** Forgets an account's failed log-ins (by e-mail) and the addresses it signed in from (account deletion). */
export async function forgetLoginAttempts(db: Db, userId: string, email: string): Promise<void> {
  await db('login_failures').where({ email }).delete();
  await db('known_login_addresses').where({ user_id: userId }).delete();
}
