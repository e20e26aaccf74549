import type { Knex } from '@frametext/service-kit';

export interface Account {
  userId: string;
  email: string | null;
  balance: number;
  signedUpAt: Date | null;
  /** When its owner deleted it: its e-mail is gone and it holds nothing any more. */
  closedAt: Date | null;
}

interface AccountRow {
  user_id: string;
  email: string | null;
  balance: number;
  signed_up_at: Date | null;
  closed_at: Date | null;
}

const toAccount = (r: AccountRow): Account => ({ userId: r.user_id, email: r.email, balance: r.balance, signedUpAt: r.signed_up_at, closedAt: r.closed_at });

/** Creates the user's account row if missing (balance 0), so that it can be locked. */
export async function ensureAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}

/**
 * Records what identity told us about the user (the e-mail can change later; the latest event wins). A closed account
 * stays as it is: an event that arrives after the deletion (a retry, a replay) must not bring the e-mail back.
 */
export async function rememberUser(trx: Knex.Transaction, userId: string, email: string, signedUpAt: string): Promise<void> {
  await trx.raw(
    `insert into accounts (user_id, email, signed_up_at) values (?, ?, ?)
     on conflict (user_id) do update set email = excluded.email, signed_up_at = excluded.signed_up_at, updated_at = now()
     where accounts.closed_at is null`,
    [userId, email, signedUpAt],
  );
}

/** Closes a locked account and erases its e-mail; answers false when it was closed already. */
export async function markClosed(trx: Knex.Transaction, userId: string): Promise<boolean> {
  const n = await trx('accounts').where({ user_id: userId }).whereNull('closed_at').update({ email: null, closed_at: trx.fn.now(), updated_at: trx.fn.now() });
  return n > 0;
}

/**
 * Locks the user's account row until the transaction ends. Every movement of a user's credits takes this
 * lock first, so concurrent reservations and settlements of one user run one after the other.
 */
export async function lockAccount(trx: Knex.Transaction, userId: string): Promise<Account> {
  const row = await trx<AccountRow>('accounts').where({ user_id: userId }).forUpdate().first();
  if (!row) throw new Error(`account ${userId} does not exist; call ensureAccount first`);
  return toAccount(row);
}

export async function findAccount(db: Knex, userId: string): Promise<Account | undefined> {
  const row = await db<AccountRow>('accounts').where({ user_id: userId }).first();
  return row ? toAccount(row) : undefined;
}

/** Adds `delta` to the balance of a locked account and returns the new balance, and whether the account is closed. */
export async function addToBalance(trx: Knex.Transaction, userId: string, delta: number): Promise<{ balance: number; closed: boolean }> {
  const [row] = await trx('accounts')
    .where({ user_id: userId })
    .update({ balance: trx.raw('balance + ?', [delta]), updated_at: trx.fn.now() })
    .returning<{ balance: number; closed_at: Date | null }[]>(['balance', 'closed_at']);
  return { balance: row!.balance, closed: row!.closed_at !== null };
}
