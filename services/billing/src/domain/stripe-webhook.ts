import type { Knex, Logger } from '@frametext/service-kit';
import type Stripe from 'stripe';
import type { ProviderName } from '../data/checkout-sessions.js';
import { claimEvent } from '../data/stripe-events.js';
import type { BillingContext } from './context.js';
import { creditPaidSession, refundCharge, setSessionStatus, type PurchaseOutcome } from './purchases.js';

export type WebhookOutcome = PurchaseOutcome | 'duplicate' | 'ignored';

/**
 * Handles one verified Stripe event in one transaction that first claims the event id: a replayed or
 * concurrently delivered copy finds the id taken and changes nothing, and a failure rolls the claim back
 * with everything else so Stripe's retry runs it again.
 */
export async function handleStripeEvent(ctx: BillingContext, provider: ProviderName, event: Stripe.Event): Promise<WebhookOutcome> {
  const outcome = await ctx.db.transaction(async (trx) => {
    if (!(await claimEvent(trx, event.id, event.type))) return 'duplicate' as const;
    return applyEvent(trx, provider, event, ctx.logger);
  });
  ctx.logger.info({ eventId: event.id, type: event.type, outcome }, 'stripe event handled');
  return outcome;
}

async function applyEvent(trx: Knex.Transaction, provider: ProviderName, event: Stripe.Event, log: Logger): Promise<WebhookOutcome> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      // A bank debit or voucher completes the session unpaid; async_payment_succeeded brings the money later.
      if (session.payment_status === 'paid') return creditPaidSession(trx, session, provider, log);
      return setSessionStatus(trx, session.id, 'processing');
    }
    case 'checkout.session.async_payment_succeeded':
      return creditPaidSession(trx, event.data.object, provider, log);
    case 'checkout.session.async_payment_failed':
      return setSessionStatus(trx, event.data.object.id, 'failed');
    case 'checkout.session.expired':
      return setSessionStatus(trx, event.data.object.id, 'expired');
    case 'charge.refunded':
      return refundCharge(trx, event.data.object, log);
    default:
      return 'ignored';
  }
}
