import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBilling, type TestBilling } from './helpers.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { WEBHOOK_SECRET, asUser, deliverEvent } from './support/payments.js';
import { chargeRefunded, newPaymentIntent, newSessionId, otherEvent, sessionEvent, sessionExpired, signatureFor } from './support/stripe-events.js';

let stripe: FakeStripe;
let billing: TestBilling;

beforeAll(async () => {
  stripe = await startFakeStripe();
  billing = await startBilling({ STRIPE_SECRET_KEY: 'sk_test_frametext', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url });
});

afterAll(async () => {
  await billing?.stop();
  await stripe?.close();
});

/** A new user (50 free credits) with an open Checkout session for `credits`, made through the API as the SPA does. */
async function openCheckout(credits: 100 | 500 | 2500) {
  const userId = await billing.newUser();
  const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits });
  expect(res.status).toBe(200);
  const sessionId = [...stripe.sessions.keys()].at(-1)!;
  const amountTotal = { 100: 100, 500: 500, 2500: 2000 }[credits];
  return { userId, sessionId, credits, amountTotal, paymentIntent: newPaymentIntent() };
}

const purchases = async (userId: string) => (await billing.ledger(userId)).filter((m) => m.kind === 'purchase');
const statusOf = async (userId: string, sessionId: string) => (await asUser(billing, userId, 'GET', `/api/checkout-sessions/${sessionId}`)).body.status;

describe('checkout.session.completed', () => {
  it('credits a paid session once, however often the same event is delivered', async () => {
    const order = await openCheckout(500);
    const event = sessionEvent('checkout.session.completed', order);

    const first = await deliverEvent(billing, event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true });
    expect(await billing.balance(order.userId)).toBe(550);

    for (let i = 0; i < 3; i++) expect((await deliverEvent(billing, event)).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(550);
    expect(await billing.ledgerBalance(order.userId)).toBe(550);
    expect(await purchases(order.userId)).toEqual([expect.objectContaining({ credits: 500, checkoutSessionId: order.sessionId })]);
    expect(await statusOf(order.userId, order.sessionId)).toBe('credited');
    expect((await billing.get('/api/getUserData', order.userId)).body).toMatchObject({ credits: 550, subscription_tier: 'starter', firstLogin: false });
  });

  it('credits once when copies of the event arrive at the same moment', async () => {
    const order = await openCheckout(100);
    const event = sessionEvent('checkout.session.completed', order);
    const answers = await Promise.all(Array.from({ length: 8 }, () => deliverEvent(billing, event)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(await billing.balance(order.userId)).toBe(150);
    expect(await purchases(order.userId)).toHaveLength(1);
  });

  it('credits once when different events about the same paid session race (completed and a re-sent copy under a new id)', async () => {
    const order = await openCheckout(2500);
    const events = [sessionEvent('checkout.session.completed', order), sessionEvent('checkout.session.completed', order), sessionEvent('checkout.session.async_payment_succeeded', order)];
    const answers = await Promise.all(events.flatMap((e) => [deliverEvent(billing, e), deliverEvent(billing, e)]));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await billing.balance(order.userId)).toBe(2550);
    expect(await purchases(order.userId)).toHaveLength(1);
    expect((await billing.get('/api/getUserData', order.userId)).body.subscription_tier).toBe('pro');
  });

  it('waits for the money of a delayed payment: unpaid completion credits nothing, async_payment_succeeded credits', async () => {
    const order = await openCheckout(500);
    expect((await deliverEvent(billing, sessionEvent('checkout.session.completed', { ...order, paymentStatus: 'unpaid' }))).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(50);
    expect(await statusOf(order.userId, order.sessionId)).toBe('processing');

    expect((await deliverEvent(billing, sessionEvent('checkout.session.async_payment_succeeded', order))).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(550);
    expect(await statusOf(order.userId, order.sessionId)).toBe('credited');
  });

  it('a failed delayed payment or an expired session credits nothing and says so', async () => {
    const failed = await openCheckout(100);
    await deliverEvent(billing, sessionEvent('checkout.session.completed', { ...failed, paymentStatus: 'unpaid' }));
    await deliverEvent(billing, sessionEvent('checkout.session.async_payment_failed', { ...failed, paymentStatus: 'unpaid' }));
    expect(await statusOf(failed.userId, failed.sessionId)).toBe('failed');

    const expired = await openCheckout(100);
    expect((await deliverEvent(billing, sessionExpired(expired))).status).toBe(200);
    expect(await statusOf(expired.userId, expired.sessionId)).toBe('expired');
    expect([await billing.balance(failed.userId), await billing.balance(expired.userId)]).toEqual([50, 50]);
  });

  it('credits a paid session it has no record of from its metadata (user and pack), once', async () => {
    const userId = await billing.newUser();
    const order = { userId, sessionId: newSessionId(), credits: 100, amountTotal: 100 };
    await deliverEvent(billing, sessionEvent('checkout.session.completed', order));
    await deliverEvent(billing, sessionEvent('checkout.session.completed', order));
    expect(await billing.balance(userId)).toBe(150);
    expect(await statusOf(userId, order.sessionId)).toBe('credited');
  });

  it('leaves alone a paid session whose metadata does not match the session billing made', async () => {
    const order = await openCheckout(100);
    expect((await deliverEvent(billing, sessionEvent('checkout.session.completed', { ...order, credits: 2500 }))).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(50);
    expect(await statusOf(order.userId, order.sessionId)).toBe('open');
  });
});

describe('signatures', () => {
  it('refuses a wrong secret, a tampered body, a stale timestamp or no signature with 400, and changes nothing', async () => {
    const order = await openCheckout(500);
    const event = sessionEvent('checkout.session.completed', order);
    const attempts = [
      await deliverEvent(billing, event, { secret: 'whsec_not_the_endpoint_secret_0000000000' }),
      await deliverEvent(billing, event, { tamper: (p) => p.replace('"credits": "500"', '"credits": "2500"') }),
      await deliverEvent(billing, event, { ageSeconds: 6 * 60 }),
      await deliverEvent(billing, event, { signature: null }),
      await deliverEvent(billing, event, { signature: 't=1,v1=abc' }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('billing/invalid-signature');
    }
    expect(await billing.balance(order.userId)).toBe(50);
    expect(await billing.db('stripe_events').where({ event_id: event.id as string })).toEqual([]);

    // The refusals left no trace: the genuine delivery still credits.
    expect((await deliverEvent(billing, event)).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(550);
  });

  it('verifies the bytes as sent: the same JSON re-serialised differently no longer matches', async () => {
    const order = await openCheckout(100);
    const event = sessionEvent('checkout.session.completed', order);
    const pretty = JSON.stringify(event, null, 2);
    const res = await billing.send('POST', '/api/stripe/webhook', {
      raw: JSON.stringify(event),
      headers: { 'content-type': 'application/json', 'stripe-signature': signatureFor(pretty, WEBHOOK_SECRET) },
    });
    expect(res.status).toBe(400);
    expect(await billing.balance(order.userId)).toBe(50);
  });
});

describe('refunds and other events', () => {
  it('records charge.refunded as a refund movement, once, and the tier follows', async () => {
    const order = await openCheckout(500);
    await deliverEvent(billing, sessionEvent('checkout.session.completed', order));
    expect(await billing.balance(order.userId)).toBe(550);

    const partial = chargeRefunded({ paymentIntent: order.paymentIntent, amount: 500, amountRefunded: 200 });
    await deliverEvent(billing, partial);
    await deliverEvent(billing, partial);
    expect(await billing.balance(order.userId)).toBe(350);

    const full = chargeRefunded({ paymentIntent: order.paymentIntent, amount: 500, amountRefunded: 500 });
    expect((await deliverEvent(billing, full)).status).toBe(200);
    await deliverEvent(billing, full);
    expect(await billing.balance(order.userId)).toBe(50);
    expect(await billing.ledgerBalance(order.userId)).toBe(50);
    const refunds = (await billing.ledger(order.userId)).filter((m) => m.kind === 'refund');
    expect(refunds.map((m) => [m.credits, m.checkoutSessionId])).toEqual([
      [200, order.sessionId],
      [300, order.sessionId],
    ]);
    expect((await billing.get('/api/getUserData', order.userId)).body.subscription_tier).toBe('free');
  });

  it('takes back only what is left when the refunded credits were already spent', async () => {
    const order = await openCheckout(100);
    await deliverEvent(billing, sessionEvent('checkout.session.completed', order));
    await billing.reserve({ uploadId: randomUUID(), userId: order.userId, engine: 'cloud', frames: 120 });
    expect(await billing.balance(order.userId)).toBe(30);

    expect((await deliverEvent(billing, chargeRefunded({ paymentIntent: order.paymentIntent, amount: 100, amountRefunded: 100 }))).status).toBe(200);
    expect(await billing.balance(order.userId)).toBe(0);
    expect((await billing.ledger(order.userId)).filter((m) => m.kind === 'refund').map((m) => m.credits)).toEqual([30]);
  });

  it('answers 2xx to events it does not handle, and to refunds of charges it never credited', async () => {
    expect((await deliverEvent(billing, otherEvent())).status).toBe(200);
    expect((await deliverEvent(billing, chargeRefunded({ paymentIntent: newPaymentIntent(), amount: 100, amountRefunded: 100 }))).status).toBe(200);
    const stranger = sessionEvent('checkout.session.completed', { sessionId: newSessionId(), userId: '', credits: 7 });
    expect((await deliverEvent(billing, stranger)).status).toBe(200);
  });
});
