import type { Knex } from '@frametext/service-kit';

export const MOVEMENT_KINDS = ['grant', 'reserve', 'capture', 'release', 'purchase', 'local_use', 'refund', 'forfeit'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** How each kind moves the spendable balance: a capture spends credits a reserve already took out. */
export const BALANCE_SIGN: Readonly<Record<MovementKind, 1 | 0 | -1>> = {
  grant: 1,
  purchase: 1,
  release: 1,
  reserve: -1,
  local_use: -1,
  refund: -1,
  /** What a closed (deleted) account held: it can never be spent again. */
  forfeit: -1,
  capture: 0,
};

export interface Movement {
  userId: string;
  kind: MovementKind;
  credits: number;
  uploadId: string | null;
  /** The checkout session a purchase or refund belongs to. */
  checkoutSessionId?: string | null;
}

export interface LedgerEntry extends Movement {
  balanceDelta: number;
  createdAt: Date;
}

export async function insertMovement(trx: Knex.Transaction, m: Movement): Promise<number> {
  const balanceDelta = BALANCE_SIGN[m.kind] * m.credits;
  await trx('ledger').insert({
    user_id: m.userId,
    kind: m.kind,
    credits: m.credits,
    balance_delta: balanceDelta,
    upload_id: m.uploadId,
    checkout_session_id: m.checkoutSessionId ?? null,
  });
  return balanceDelta;
}

/** The user's local_use movement for a Local engine run, if it was charged. */
export async function findLocalUse(db: Knex, userId: string, uploadId: string): Promise<{ credits: number } | undefined> {
  const row = await db('ledger').where({ user_id: userId, upload_id: uploadId, kind: 'local_use' }).first('credits');
  return row ? { credits: Number(row.credits) } : undefined;
}

export async function hasMovement(db: Knex, userId: string, kinds: readonly MovementKind[]): Promise<boolean> {
  const row = await db('ledger').where({ user_id: userId }).whereIn('kind', kinds).first('id');
  return row !== undefined;
}

export async function ledgerOf(db: Knex, userId: string): Promise<LedgerEntry[]> {
  const rows = await db('ledger').where({ user_id: userId }).orderBy('id');
  return rows.map((r: { user_id: string; kind: MovementKind; credits: number; upload_id: string | null; checkout_session_id: string | null; balance_delta: number; created_at: Date }) => ({
    userId: r.user_id,
    kind: r.kind,
    credits: r.credits,
    uploadId: r.upload_id,
    checkoutSessionId: r.checkout_session_id,
    balanceDelta: r.balance_delta,
    createdAt: r.created_at,
  }));
}

/** The balance as the ledger alone says it (operators and tests compare it with accounts.balance). */
export async function ledgerBalance(db: Knex, userId: string): Promise<number> {
  const row = await db('ledger').where({ user_id: userId }).sum<{ sum: string | null }>('balance_delta as sum').first();
  return Number(row?.sum ?? 0);
}
