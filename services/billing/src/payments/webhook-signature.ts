import Stripe from 'stripe';

/** Stripe's own default: an event signed more than 5 minutes ago is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * Checks the Stripe-Signature header against the raw body bytes and the endpoint's secret, and that it was
 * signed within the tolerance; then parses the event. Any failure is a WebhookSignatureError.
 */
export function verifiedEvent(rawBody: Buffer, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : 'The signature could not be verified.', { cause: err });
  }
}
