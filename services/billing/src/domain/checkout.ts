import { randomUUID } from 'node:crypto';
import { CREDIT_PACKS, type CheckoutRequest, type CheckoutResponse, type CheckoutSession } from '@frametext/contracts';
import { AppError, notFound } from '@frametext/service-kit';
import { findCheckoutSession, insertCheckoutSession } from '../data/checkout-sessions.js';
import { ProviderUnavailableError, type PaymentProvider } from '../payments/provider.js';
import type { BillingContext } from './context.js';

export const PAYMENTS_OFF_MESSAGE = 'Buying credits is not available on this server.';
export const PROVIDER_DOWN_MESSAGE = 'The payment page could not be opened just now. Please try again in a moment.';
/** Stripe replaces this placeholder in the success URL with the session id. */
const SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

export function requirePayments(ctx: BillingContext): PaymentProvider {
  if (!ctx.payments) throw new AppError(503, 'billing/payments-unavailable', PAYMENTS_OFF_MESSAGE);
  return ctx.payments;
}

/** Where the provider sends the person back: the SPA's success page (told the session id) and cancelled page. */
export function returnUrls(appUrl: string): { successUrl: string; cancelUrl: string } {
  const base = appUrl.replace(/\/+$/, '');
  return { successUrl: `${base}/checkout-success?session_id=${SESSION_PLACEHOLDER}`, cancelUrl: `${base}/checkout-cancelled` };
}

/**
 * Opens a payment page for one pack: the provider makes a Checkout session (payment mode, the user and the
 * pack in its metadata, billing's attempt id as idempotency key) and billing records it as open.
 */
export async function startCheckout(ctx: BillingContext, userId: string, req: CheckoutRequest): Promise<CheckoutResponse> {
  const provider = requirePayments(ctx);
  const pack = CREDIT_PACKS.find((p) => p.credits === req.credits)!;
  const { successUrl, cancelUrl } = returnUrls(ctx.config.APP_URL);
  const order = { checkoutId: randomUUID(), userId, credits: pack.credits, priceCents: pack.priceCents, currency: 'usd', successUrl, cancelUrl };
  let created;
  try {
    created = await provider.createCheckout(order);
  } catch (err) {
    if (err instanceof ProviderUnavailableError) throw new AppError(502, 'billing/payment-provider-unavailable', PROVIDER_DOWN_MESSAGE, { cause: err });
    throw err;
  }
  await insertCheckoutSession(ctx.db, {
    sessionId: created.sessionId,
    userId,
    provider: provider.name,
    credits: pack.credits,
    amountCents: pack.priceCents,
    currency: order.currency,
    successUrl,
    cancelUrl,
  });
  ctx.logger.info({ userId, sessionId: created.sessionId, credits: pack.credits, provider: provider.name }, 'checkout session created');
  return { url: created.url };
}

/** The signed-in user's own session; someone else's answers 404 like an unknown one. */
export async function checkoutSessionOf(ctx: BillingContext, userId: string, sessionId: string): Promise<CheckoutSession> {
  const row = await findCheckoutSession(ctx.db, sessionId);
  if (!row || row.userId !== userId) throw notFound('billing/checkout-not-found', 'No such checkout session.');
  return {
    sessionId: row.sessionId,
    credits: row.credits as CheckoutSession['credits'],
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    creditedAt: row.creditedAt ? row.creditedAt.toISOString() : null,
  };
}
