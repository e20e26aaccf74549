import type { Knex } from '@frametext/service-kit';

export interface Account {
  userId: string;
  email: string | null;
  balance: number;
  signedUpAt: Date | null;
}

interface AccountRow {
  user_id: string;
  email: string | null;
  balance: number;
  signed_up_at: Date | null;
}

const toAccount = (r: AccountRow): Account => ({ userId: r.user_id, email: r.email, balance: r.balance, signedUpAt: r.signed_up_at });

/** Creates the user's account row if missing (balance 0), so that it can be locked. */
export async function ensureAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}

/** Records what identity told us about the user (the e-mail can change later; the latest event wins). */
export async function rememberUser(trx: Knex.Transaction, userId: string, email: string, signedUpAt: string): Promise<void> {
  await trx('accounts')
    .insert({ user_id: userId, email, signed_up_at: signedUpAt })
    .onConflict('user_id')
    .merge({ email, signed_up_at: signedUpAt, updated_at: trx.fn.now() });
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

/** Adds `delta` to the balance of a locked account and returns the new balance. */
export async function addToBalance(trx: Knex.Transaction, userId: string, delta: number): Promise<number> {
  const [row] = await trx('accounts')
    .where({ user_id: userId })
    .update({ balance: trx.raw('balance + ?', [delta]), updated_at: trx.fn.now() })
    .returning<{ balance: number }[]>('balance');
  return row!.balance;
}
