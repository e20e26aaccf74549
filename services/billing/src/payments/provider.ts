import type { ProviderName } from '../data/checkout-sessions.js';

/** What billing asks of a payment provider for one pack. */
export interface CheckoutOrder {
  /** Billing's own id of this attempt: the idempotency key of the provider call. */
  checkoutId: string;
  userId: string;
  credits: number;
  priceCents: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CreatedCheckout {
  sessionId: string;
  /** The payment page the SPA opens. */
  url: string;
}

/**
 * A way to take payments that speaks Stripe's Checkout and webhooks: Stripe itself, or the simulated
 * checkout of local runs. Both deliver Stripe-signed events to the one webhook route.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** The secret webhooks are signed with: the endpoint refuses any event not signed with it. */
  readonly webhookSecret: string;
  createCheckout(order: CheckoutOrder): Promise<CreatedCheckout>;
}

/** The provider could not make a payment page (network, Stripe outage, bad key): the SPA says try again. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailableError';
  }
}

/** Metadata billing puts on every session (and its payment), read back from the webhook. */
export function orderMetadata(order: Pick<CheckoutOrder, 'checkoutId' | 'userId' | 'credits'>): Record<string, string> {
  return { userId: order.userId, credits: String(order.credits), checkoutId: order.checkoutId };
}
