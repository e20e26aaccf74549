import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/*
 * Stripe-shaped webhook events for the tests, and their signatures made by the SDK's own test helper
 * (the same HMAC scheme Stripe uses), so the service verifies them exactly as it verifies Stripe's.
 */

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface SessionFacts {
  sessionId: string;
  userId: string;
  credits: number;
  amountTotal?: number;
  paymentStatus?: 'paid' | 'unpaid';
  paymentIntent?: string;
}

function event(type: string, object: Record<string, unknown>, eventId = id('evt')): Record<string, unknown> {
  return {
    id: eventId,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: id('req'), idempotency_key: null },
    type,
    data: { object },
  };
}

function session(f: SessionFacts, status: 'complete' | 'expired'): Record<string, unknown> {
  return {
    id: f.sessionId,
    object: 'checkout.session',
    mode: 'payment',
    status,
    payment_status: f.paymentStatus ?? 'paid',
    amount_total: f.amountTotal ?? f.credits,
    currency: 'usd',
    client_reference_id: f.userId,
    metadata: { userId: f.userId, credits: String(f.credits), checkoutId: id('chk') },
    payment_intent: f.paymentIntent ?? null,
    livemode: false,
  };
}

export const sessionEvent = (type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded' | 'checkout.session.async_payment_failed', f: SessionFacts, eventId?: string) =>
  event(type, session(f, 'complete'), eventId);

export const sessionExpired = (f: SessionFacts) => event('checkout.session.expired', session({ ...f, paymentStatus: 'unpaid' }, 'expired'));

export function chargeRefunded(f: { paymentIntent: string; amount: number; amountRefunded: number }): Record<string, unknown> {
  return event('charge.refunded', {
    id: id('ch'),
    object: 'charge',
    amount: f.amount,
    amount_captured: f.amount,
    amount_refunded: f.amountRefunded,
    currency: 'usd',
    paid: true,
    refunded: f.amountRefunded >= f.amount,
    payment_intent: f.paymentIntent,
    status: 'succeeded',
  });
}

export const otherEvent = () => event('customer.created', { id: id('cus'), object: 'customer', email: 'someone@example.com' });

/** A Stripe-Signature header for `payload`, as Stripe would send it `ageSeconds` after signing. */
export function signatureFor(payload: string, secret: string, ageSeconds = 0): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - ageSeconds });
}

export const newSessionId = () => id('cs_test');
export const newPaymentIntent = () => id('pi');
