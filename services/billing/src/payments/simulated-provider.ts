import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutSessionRow } from '../data/checkout-sessions.js';
import type { CheckoutOrder, CreatedCheckout, PaymentProvider } from './provider.js';

export const SIMULATED_SESSION_PREFIX = 'cs_sim_';
/** Like Stripe's, a simulated checkout can be paid for 24 hours. */
export const SIMULATED_SESSION_TTL_MS = 24 * 3_600_000;

/** The path of a simulated session's payment page (served by billing, reached through the gateway). */
export function simulatedCheckoutPath(sessionId: string): string {
  return `/api/simulated-checkout/${sessionId}`;
}

/**
 * The local stand-in for Stripe Checkout: the payment page is billing's own, and paying there sends the
 * webhook Stripe would send, signed the way Stripe signs it. No money moves.
 */
export function simulatedProvider(opts: { appUrl: string; webhookSecret?: string }): PaymentProvider {
  const base = opts.appUrl.replace(/\/+$/, '');
  return {
    name: 'simulated',
    webhookSecret: opts.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`,
    async createCheckout(_order: CheckoutOrder): Promise<CreatedCheckout> {
      const sessionId = `${SIMULATED_SESSION_PREFIX}${randomBytes(24).toString('hex')}`;
      return { sessionId, url: `${base}${simulatedCheckoutPath(sessionId)}` };
    },
  };
}

/** The Stripe address a success URL's `{CHECKOUT_SESSION_ID}` placeholder stands for. */
export function fillSessionId(url: string, sessionId: string): string {
  return url.replaceAll('{CHECKOUT_SESSION_ID}', sessionId);
}

/**
 * The `checkout.session.completed` event Stripe sends when a card payment succeeds, for a simulated session.
 * Its id is derived from the session, so paying twice sends the same event (and credits once).
 */
export function simulatedPaymentEvent(session: CheckoutSessionRow, now: Date = new Date()): Stripe.Event {
  const suffix = session.sessionId.slice(SIMULATED_SESSION_PREFIX.length);
  const created = Math.floor(now.getTime() / 1000);
  const metadata = { userId: session.userId, credits: String(session.credits) };
  const object = {
    id: session.sessionId,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    amount_subtotal: session.amountCents,
    amount_total: session.amountCents,
    currency: session.currency,
    client_reference_id: session.userId,
    metadata,
    payment_intent: `pi_sim_${suffix}`,
    success_url: session.successUrl,
    cancel_url: session.cancelUrl,
    created: Math.floor(session.createdAt.getTime() / 1000),
    livemode: false,
  };
  return {
    id: `evt_sim_${suffix}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: { object },
  } as unknown as Stripe.Event;
}

/** The body and Stripe-Signature header of a webhook delivery, as Stripe makes them. */
export function signedDelivery(event: Stripe.Event, secret: string): { payload: string; signature: string } {
  const payload = JSON.stringify(event, null, 2);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** Posts a signed event to a webhook endpoint as Stripe does; resolves with the endpoint's HTTP status. */
export async function deliverWebhook(endpoint: string, event: Stripe.Event, secret: string, timeoutMs = 15_000): Promise<number> {
  const { payload, signature } = signedDelivery(event, secret);
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
  return res.status;
}
