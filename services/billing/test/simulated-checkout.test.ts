import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutResponseSchema } from '@frametext/contracts';
import { startBilling, type TestBilling } from './helpers.js';
import { asUser, deliverEvent } from './support/payments.js';
import { sessionEvent } from './support/stripe-events.js';

const APP_URL = 'http://app.test:8080';
const SIMULATED_SECRET = 'whsec_simulated_for_this_test_000000';

let billing: TestBilling;

beforeAll(async () => {
  // Turned on explicitly, as npm start does: it is never on by default.
  billing = await startBilling({ APP_URL, SIMULATED_CHECKOUT: 'true', SIMULATED_CHECKOUT_WEBHOOK_SECRET: SIMULATED_SECRET });
});

afterAll(async () => {
  await billing?.stop();
});

/** Opens a simulated checkout as the SPA does; answers the page's path on billing and the session id. */
async function openCheckout(userId: string, credits: 100 | 500 | 2500) {
  const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits });
  expect(res.status).toBe(200);
  const url = new URL(checkoutResponseSchema.parse(res.body).url);
  expect(url.origin).toBe(APP_URL);
  const sessionId = url.pathname.split('/').at(-1)!;
  return { path: url.pathname, sessionId };
}

const pay = (path: string) => billing.send('POST', `${path}/pay`, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });

describe('the simulated checkout (no Stripe key, SIMULATED_CHECKOUT=true)', () => {
  it("tells the SPA that packs are sold through it", async () => {
    expect((await billing.get('/api/config')).body.purchases).toBe('simulated');
  });

  it('serves a payment page for the session that says no money moves, and works without script', async () => {
    const userId = await billing.newUser();
    const { path, sessionId } = await openCheckout(userId, 500);
    expect(path).toBe(`/api/simulated-checkout/${sessionId}`);
    expect(sessionId).toMatch(/^cs_sim_[a-f0-9]{48}$/);

    const page = await billing.send('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = String(page.body);
    expect(html).toContain('no card is asked for and no money moves');
    expect(html).toContain('Buy 500 credits');
    expect(html).toContain('Pay $5.00 (simulated)');
    expect(html).toContain(`<form method="post" action="${path}/pay">`);
    expect(html).toContain(`href="${APP_URL}/checkout-cancelled"`);
    expect(html).not.toContain('<script');
  });

  it('paying sends a Stripe-signed webhook that credits the pack, then redirects to the success page; paying again credits nothing', async () => {
    const userId = await billing.newUser();
    const { path, sessionId } = await openCheckout(userId, 2500);

    const paid = await pay(path);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${APP_URL}/checkout-success?session_id=${sessionId}`);
    expect(await billing.balance(userId)).toBe(2550);
    expect((await billing.ledger(userId)).filter((m) => m.kind === 'purchase')).toEqual([expect.objectContaining({ credits: 2500, checkoutSessionId: sessionId })]);
    expect(await billing.db('stripe_events').where({ type: 'checkout.session.completed' }).whereLike('event_id', 'evt_sim_%')).not.toHaveLength(0);
    expect((await asUser(billing, userId, 'GET', `/api/checkout-sessions/${sessionId}`)).body.status).toBe('credited');
    expect((await billing.get('/api/getUserData', userId)).body.subscription_tier).toBe('pro');

    const again = await pay(path);
    expect(again.status).toBe(303);
    expect(await billing.balance(userId)).toBe(2550);
    expect(String((await billing.send('GET', path)).body)).toContain('Already paid');
  });

  it('two pays at once credit once', async () => {
    const userId = await billing.newUser();
    const { path } = await openCheckout(userId, 100);
    const answers = await Promise.all([pay(path), pay(path), pay(path)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(await billing.balance(userId)).toBe(150);
  });

  it('answers an unknown session with a 404 page and credits nothing', async () => {
    const path = `/api/simulated-checkout/cs_sim_${'0'.repeat(48)}`;
    const page = await billing.send('GET', path);
    expect(page.status).toBe(404);
    expect(String(page.body)).toContain('Checkout not found');
    expect((await pay(path)).status).toBe(404);
  });

  it('runs the same webhook verification: events signed with another secret are refused', async () => {
    const userId = await billing.newUser();
    const { sessionId } = await openCheckout(userId, 100);
    const event = sessionEvent('checkout.session.completed', { sessionId, userId, credits: 100, amountTotal: 100 });
    expect((await deliverEvent(billing, event)).status).toBe(400);
    expect(await billing.balance(userId)).toBe(50);
    expect((await deliverEvent(billing, event, { secret: SIMULATED_SECRET })).status).toBe(200);
    expect(await billing.balance(userId)).toBe(150);
  });
});
