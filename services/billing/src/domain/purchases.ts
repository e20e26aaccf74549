import { CREDIT_PACKS, type CheckoutStatus } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import type Stripe from 'stripe';
import { ensureAccount, lockAccount } from '../data/accounts.js';
import {
  findByPaymentIntent,
  findCheckoutSession,
  insertCheckoutSession,
  lockCheckoutSession,
  markCredited,
  setCreditsRefunded,
  setUncreditedStatus,
  type ProviderName,
} from '../data/checkout-sessions.js';
import { move } from './movements.js';

/** What an event did to a purchase, for the log and the tests. */
export type PurchaseOutcome = 'credited' | 'already-credited' | 'not-ours' | 'mismatch' | 'status-changed' | 'unchanged' | 'refunded' | 'no-session';

/** The user and pack billing wrote into the session's metadata; undefined for a session some other app made. */
function orderOf(session: Stripe.Checkout.Session): { userId: string; credits: number } | undefined {
  const userId = session.metadata?.userId;
  const credits = Number(session.metadata?.credits);
  if (!userId || !CREDIT_PACKS.some((p) => p.credits === credits)) return undefined;
  return { userId, credits };
}

const idOf = (ref: string | { id: string } | null | undefined): string | null => (ref == null ? null : typeof ref === 'string' ? ref : ref.id);

/**
 * Puts a paid session's pack on the user's balance, once: the account is locked first, then the session row;
 * a session already credited moves nothing (and the ledger's unique purchase index would refuse a second
 * movement anyway). A session billing has no row for (made before a restore, say) is recorded from its
 * metadata; one without FrameText metadata is not ours and is left alone.
 */
export async function creditPaidSession(trx: Knex.Transaction, session: Stripe.Checkout.Session, provider: ProviderName, log: Logger): Promise<PurchaseOutcome> {
  const order = orderOf(session);
  if (!order) {
    log.warn({ sessionId: session.id }, 'paid checkout session without FrameText metadata; ignored');
    return 'not-ours';
  }
  await ensureAccount(trx, order.userId);
  await lockAccount(trx, order.userId);
  let row = await lockCheckoutSession(trx, session.id);
  if (!row) {
    await insertCheckoutSession(trx, {
      sessionId: session.id,
      userId: order.userId,
      provider,
      credits: order.credits,
      amountCents: session.amount_total ?? CREDIT_PACKS.find((p) => p.credits === order.credits)!.priceCents,
      currency: session.currency ?? 'usd',
      successUrl: session.success_url ?? '',
      cancelUrl: session.cancel_url ?? '',
    });
    row = (await lockCheckoutSession(trx, session.id))!;
  }
  if (row.userId !== order.userId || row.credits !== order.credits) {
    log.error({ sessionId: session.id, row: { userId: row.userId, credits: row.credits }, metadata: order }, 'checkout session metadata does not match the session billing created; not credited');
    return 'mismatch';
  }
  if (row.status === 'credited') return 'already-credited';

  const forfeited = await move(trx, { userId: row.userId, kind: 'purchase', credits: row.credits, uploadId: null, checkoutSessionId: row.sessionId });
  await markCredited(trx, row.sessionId, idOf(session.payment_intent));
  if (forfeited > 0) {
    // Paid after (or while) the account was deleted: the money came in, the credits can never be used. Refund it.
    log.error({ sessionId: row.sessionId, userId: row.userId, credits: row.credits }, 'payment for a closed account: its credits are forfeited; refund the payment');
    return 'credited';
  }
  log.info({ sessionId: row.sessionId, userId: row.userId, credits: row.credits }, 'purchase credited');
  return 'credited';
}

/** A session that ended without a payment, or whose delayed payment is still on its way: its status only. */
export async function setSessionStatus(trx: Knex.Transaction, sessionId: string, status: Exclude<CheckoutStatus, 'credited'>): Promise<PurchaseOutcome> {
  const row = await findCheckoutSession(trx, sessionId);
  if (!row) return 'no-session';
  return (await setUncreditedStatus(trx, sessionId, status)) ? 'status-changed' : 'unchanged';
}

/**
 * charge.refunded: takes back the credits the refunded money paid for. Stripe reports the charge's total
 * refunded so far, so the credits to take are that share of the pack (all of it for a full refund) minus what
 * earlier refunds already took; a replay or an older partial refund takes nothing. Credits already spent cannot
 * be taken: the movement is capped at the balance (the balance never goes below zero) and the rest is logged.
 */
export async function refundCharge(trx: Knex.Transaction, charge: Stripe.Charge, log: Logger): Promise<PurchaseOutcome> {
  const paymentIntentId = idOf(charge.payment_intent);
  const found = paymentIntentId ? await findByPaymentIntent(trx, paymentIntentId) : undefined;
  if (!found) {
    log.warn({ chargeId: charge.id, paymentIntentId }, 'refund of a charge billing did not credit; ignored');
    return 'no-session';
  }
  const account = await lockAccount(trx, found.userId);
  const row = (await lockCheckoutSession(trx, found.sessionId))!;
  if (row.status !== 'credited') return 'unchanged';

  const paid = charge.amount > 0 ? charge.amount : row.amountCents;
  const refundedShare = charge.amount_refunded >= paid ? row.credits : Math.round((row.credits * charge.amount_refunded) / paid);
  const toTake = refundedShare - row.creditsRefunded;
  if (toTake <= 0) return 'unchanged';

  const taken = Math.min(toTake, account.balance);
  await move(trx, { userId: row.userId, kind: 'refund', credits: taken, uploadId: null, checkoutSessionId: row.sessionId });
  await setCreditsRefunded(trx, row.sessionId, refundedShare);
  if (taken < toTake) log.warn({ sessionId: row.sessionId, userId: row.userId, refunded: toTake, taken }, 'refund larger than the balance: the rest was already spent');
  log.info({ sessionId: row.sessionId, userId: row.userId, credits: taken }, 'refund recorded');
  return 'refunded';
}
