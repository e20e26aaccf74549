import type { CheckoutStatus } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

export type ProviderName = 'stripe' | 'simulated';

export interface CheckoutSessionRow {
  sessionId: string;
  userId: string;
  provider: ProviderName;
  credits: number;
  amountCents: number;
  currency: string;
  status: CheckoutStatus;
  successUrl: string;
  cancelUrl: string;
  paymentIntentId: string | null;
  creditsRefunded: number;
  createdAt: Date;
  creditedAt: Date | null;
}

interface Row {
  session_id: string;
  user_id: string;
  provider: ProviderName;
  credits: number;
  amount_cents: number;
  currency: string;
  status: CheckoutStatus;
  success_url: string;
  cancel_url: string;
  payment_intent_id: string | null;
  credits_refunded: number;
  created_at: Date;
  credited_at: Date | null;
}

const fromRow = (r: Row): CheckoutSessionRow => ({
  sessionId: r.session_id,
  userId: r.user_id,
  provider: r.provider,
  credits: r.credits,
  amountCents: r.amount_cents,
  currency: r.currency,
  status: r.status,
  successUrl: r.success_url,
  cancelUrl: r.cancel_url,
  paymentIntentId: r.payment_intent_id,
  creditsRefunded: r.credits_refunded,
  createdAt: r.created_at,
  creditedAt: r.credited_at,
});

export type NewCheckoutSession = Pick<CheckoutSessionRow, 'sessionId' | 'userId' | 'provider' | 'credits' | 'amountCents' | 'currency' | 'successUrl' | 'cancelUrl'>;

/** Records a session the provider made; a second insert of the same id (a replayed create) changes nothing. */
export async function insertCheckoutSession(db: Knex | Knex.Transaction, s: NewCheckoutSession): Promise<void> {
  await db('checkout_sessions')
    .insert({
      session_id: s.sessionId,
      user_id: s.userId,
      provider: s.provider,
      credits: s.credits,
      amount_cents: s.amountCents,
      currency: s.currency,
      success_url: s.successUrl,
      cancel_url: s.cancelUrl,
    })
    .onConflict('session_id')
    .ignore();
}

export async function findCheckoutSession(db: Knex | Knex.Transaction, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  const row = await db<Row>('checkout_sessions').where({ session_id: sessionId }).first();
  return row ? fromRow(row) : undefined;
}

export async function findByPaymentIntent(db: Knex | Knex.Transaction, paymentIntentId: string): Promise<CheckoutSessionRow | undefined> {
  const row = await db<Row>('checkout_sessions').where({ payment_intent_id: paymentIntentId }).first();
  return row ? fromRow(row) : undefined;
}

/** Locks the session row; take the account lock first (the service's one lock order). */
export async function lockCheckoutSession(trx: Knex.Transaction, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  const row = await trx<Row>('checkout_sessions').where({ session_id: sessionId }).forUpdate().first();
  return row ? fromRow(row) : undefined;
}

export async function markCredited(trx: Knex.Transaction, sessionId: string, paymentIntentId: string | null): Promise<void> {
  await trx('checkout_sessions')
    .where({ session_id: sessionId })
    .update({ status: 'credited', credited_at: trx.fn.now(), payment_intent_id: paymentIntentId, updated_at: trx.fn.now() });
}

/** Moves a session that was not credited to another status; false when it was already credited (or absent). */
export async function setUncreditedStatus(trx: Knex.Transaction, sessionId: string, status: Exclude<CheckoutStatus, 'credited'>): Promise<boolean> {
  const n = await trx('checkout_sessions')
    .where({ session_id: sessionId })
    .whereNot({ status: 'credited' })
    .update({ status, updated_at: trx.fn.now() });
  return n > 0;
}

export async function setCreditsRefunded(trx: Knex.Transaction, sessionId: string, creditsRefunded: number): Promise<void> {
  await trx('checkout_sessions').where({ session_id: sessionId }).update({ credits_refunded: creditsRefunded, updated_at: trx.fn.now() });
}

/** Credits the user has bought and kept: credited sessions minus what was refunded of them. */
export async function creditsBought(db: Knex | Knex.Transaction, userId: string): Promise<number> {
  const row = (await db('checkout_sessions')
    .where({ user_id: userId, status: 'credited' })
    .first(db.raw('coalesce(sum(credits - credits_refunded), 0) as bought'))) as { bought: string | number } | undefined;
  return Number(row?.bought ?? 0);
}
