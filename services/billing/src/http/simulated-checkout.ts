import { Router, type Request, type Response } from 'express';
import { AppError } from '@frametext/service-kit';
import { findCheckoutSession, type CheckoutSessionRow } from '../data/checkout-sessions.js';
import type { BillingContext } from '../domain/context.js';
import type { PaymentProvider } from '../payments/provider.js';
import { SIMULATED_SESSION_PREFIX, SIMULATED_SESSION_TTL_MS, deliverWebhook, fillSessionId, simulatedCheckoutPath, simulatedPaymentEvent } from '../payments/simulated-provider.js';
import { simulatedCheckoutPage, type SimulatedPageState } from './simulated-checkout-page.js';

const SESSION_ID = /^cs_sim_[a-f0-9]{48}$/;
const DELIVERY_FAILED = 'The payment could not be confirmed to FrameText just now, so nothing was credited. Please try again.';

function send(res: Response, status: number, state: SimulatedPageState, appOrigin: string): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      // No script at all; the form posts here and the answer redirects to the app.
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${appOrigin}; frame-ancestors 'none'; base-uri 'none'`,
    })
    .send(simulatedCheckoutPage(state));
}

function stateOf(session: CheckoutSessionRow | undefined, now = Date.now()): SimulatedPageState {
  if (!session || session.provider !== 'simulated') return { kind: 'unknown' };
  if (session.status === 'credited') return { kind: 'paid', session, successUrl: fillSessionId(session.successUrl, session.sessionId) };
  if (session.status !== 'open' || now - session.createdAt.getTime() > SIMULATED_SESSION_TTL_MS) return { kind: 'closed', session };
  return { kind: 'payable', session, payPath: `${simulatedCheckoutPath(session.sessionId)}/pay` };
}

async function sessionFor(ctx: BillingContext, req: Request): Promise<CheckoutSessionRow | undefined> {
  const id = String(req.params.id ?? '');
  return SESSION_ID.test(id) && id.startsWith(SIMULATED_SESSION_PREFIX) ? findCheckoutSession(ctx.db, id) : undefined;
}

/**
 * The simulated provider's payment page, public (opened in a new tab, without the app's token) and bound to
 * an unguessable session id. Paying sends checkout.session.completed, signed as Stripe signs it, to billing's
 * own webhook route over HTTP, then redirects to the success page like Stripe does.
 */
export function simulatedCheckoutRoutes(ctx: BillingContext, provider: PaymentProvider): Router {
  const router = Router();
  const appOrigin = new URL(ctx.config.APP_URL).origin;

  router.get('/simulated-checkout/:id', async (req, res) => {
    const state = stateOf(await sessionFor(ctx, req));
    send(res, state.kind === 'unknown' ? 404 : 200, state, appOrigin);
  });

  router.post('/simulated-checkout/:id/pay', async (req, res) => {
    const state = stateOf(await sessionFor(ctx, req));
    if (state.kind === 'paid') return void res.redirect(303, state.successUrl);
    if (state.kind !== 'payable') return send(res, state.kind === 'unknown' ? 404 : 409, state, appOrigin);

    const endpoint = `http://127.0.0.1:${req.socket.localPort}/api/stripe/webhook`;
    let status = 0;
    try {
      status = await deliverWebhook(endpoint, simulatedPaymentEvent(state.session), provider.webhookSecret);
    } catch (err) {
      ctx.logger.error({ err, sessionId: state.session.sessionId }, 'simulated webhook delivery failed');
    }
    if (status >= 200 && status < 300) return void res.redirect(303, fillSessionId(state.session.successUrl, state.session.sessionId));
    if (status) ctx.logger.error({ status, sessionId: state.session.sessionId }, 'the webhook refused the simulated payment');
    send(res, 502, { ...state, error: DELIVERY_FAILED }, appOrigin);
  });

  return router;
}

export const SIMULATED_CHECKOUT_OFF_MESSAGE = 'The simulated checkout is not enabled on this server: nothing can be paid here and no credits were added.';

/**
 * Where the simulated checkout would be while it is off (production without SIMULATED_CHECKOUT=true): every path
 * answers 404 saying so, and nothing is paid or credited.
 */
export function simulatedCheckoutOff(): Router {
  const router = Router();
  router.all(['/simulated-checkout/:id', '/simulated-checkout/:id/pay'], () => {
    throw new AppError(404, 'billing/simulated-checkout-off', SIMULATED_CHECKOUT_OFF_MESSAGE);
  });
  return router;
}
