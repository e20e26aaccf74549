import express, { Router } from 'express';
import { checkoutRequestSchema, checkoutSessionIdSchema, type CheckoutResponse, type CheckoutSession } from '@frametext/contracts';
import { AppError, parseBody, requireUserId } from '@frametext/service-kit';
import { checkoutSessionOf, requirePayments, startCheckout } from '../domain/checkout.js';
import type { BillingContext } from '../domain/context.js';
import { handleStripeEvent } from '../domain/stripe-webhook.js';
import { WebhookSignatureError, verifiedEvent } from '../payments/webhook-signature.js';

/** The webhook path: the JSON parser skips it, so the signature is checked on the bytes Stripe signed. */
export const WEBHOOK_PATH = '/api/stripe/webhook';
export const BAD_SIGNATURE_MESSAGE = 'The Stripe signature of this webhook is missing, does not match the body, or is too old.';

/** Purchases: open a payment page, follow a session, and receive the provider's webhooks. */
export function paymentRoutes(ctx: BillingContext): Router {
  const router = Router();
  // Payments are the person's own, in a browser: personal API tokens are refused here (as at the gateway).
  const buyer = { apiToken: 'refused' } as const;

  router.post('/create-checkout-session', async (req, res) => {
    const userId = await requireUserId(req, buyer);
    const body: CheckoutResponse = await startCheckout(ctx, userId, parseBody(checkoutRequestSchema, req.body));
    res.set('cache-control', 'no-store').json(body);
  });

  router.get('/checkout-sessions/:id', async (req, res) => {
    const userId = await requireUserId(req, buyer);
    const sessionId = parseBody(checkoutSessionIdSchema, req.params.id, 'request/invalid-path');
    const body: CheckoutSession = await checkoutSessionOf(ctx, userId, sessionId);
    res.set('cache-control', 'no-store').json(body);
  });

  router.post('/stripe/webhook', express.raw({ type: () => true, limit: ctx.config.HTTP_BODY_LIMIT }), async (req, res) => {
    const provider = requirePayments(ctx);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event;
    try {
      event = verifiedEvent(raw, req.header('stripe-signature'), provider.webhookSecret);
    } catch (err) {
      if (!(err instanceof WebhookSignatureError)) throw err;
      ctx.logger.warn({ reason: err.message }, 'stripe webhook refused');
      throw new AppError(400, 'billing/invalid-signature', BAD_SIGNATURE_MESSAGE);
    }
    await handleStripeEvent(ctx, provider.name, event);
    res.json({ received: true });
  });

  return router;
}
