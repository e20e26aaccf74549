import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutResponseSchema, checkoutSessionSchema } from '@frametext/contracts';
import { BUILT_IN_SECRETS, ConfigError, parseConfig } from '@frametext/service-kit';
import { configSchema, paymentsMode } from '../src/config.js';
import { SIMULATED_CHECKOUT_OFF_MESSAGE } from '../src/http/simulated-checkout.js';
import { startBilling, type TestBilling } from './helpers.js';
import { startFakeStripe, type FakeStripe } from './support/fake-stripe.js';
import { WEBHOOK_SECRET, asUser, deliverEvent } from './support/payments.js';
import { sessionEvent } from './support/stripe-events.js';

describe('create-checkout-session with Stripe (the SDK pointed at a local server that speaks its API)', () => {
  let stripe: FakeStripe;
  let billing: TestBilling;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    billing = await startBilling({
      STRIPE_SECRET_KEY: 'sk_test_frametext',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      APP_URL: 'https://app.example.com',
    });
  });

  afterAll(async () => {
    await billing?.stop();
    await stripe?.close();
  });

  it('makes a payment-mode session for the pack, with the user and pack in its metadata and an idempotency key', async () => {
    const userId = await billing.newUser();
    const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits: 500 });

    expect(res.status).toBe(200);
    const { url } = checkoutResponseSchema.parse(res.body);
    const [sessionId, session] = [...stripe.sessions.entries()].at(-1)!;
    expect(url).toBe(session.url);

    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', apiKey: 'sk_test_frametext' });
    expect(sent.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '500',
      'line_items[0][price_data][product_data][name]': '500 FrameText credits',
      client_reference_id: userId,
      'metadata[userId]': userId,
      'metadata[credits]': '500',
      'payment_intent_data[metadata][userId]': userId,
      'payment_intent_data[metadata][credits]': '500',
      success_url: 'https://app.example.com/checkout-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example.com/checkout-cancelled',
    });

    const status = await asUser(billing, userId, 'GET', `/api/checkout-sessions/${sessionId}`);
    expect(status.status).toBe(200);
    expect(checkoutSessionSchema.parse(status.body)).toMatchObject({ sessionId, credits: 500, status: 'open', creditedAt: null });
    expect(await billing.balance(userId)).toBe(50);
  });

  it('prices each pack as the spec does: 100 for $1, 500 for $5, 2500 for $20', async () => {
    const userId = await billing.newUser();
    const amounts: string[] = [];
    for (const credits of [100, 500, 2500]) {
      expect((await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits })).status).toBe(200);
      amounts.push(stripe.requests.at(-1)!.form['line_items[0][price_data][unit_amount]']!);
    }
    expect(amounts).toEqual(['100', '500', '2000']);
  });

  it("answers 400 for anything but a pack, and 401 without the signed-in user's token", async () => {
    const userId = randomUUID();
    const before = stripe.requests.length;
    for (const body of [{ credits: 200 }, { credits: '500' }, {}, { credits: 0 }]) {
      const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('request/invalid-body');
    }
    expect((await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits: 200 })).body.error.message).toBe('credits: credits must be one of the packs: 100, 500, 2500');
    const anonymous = await billing.post('/api/create-checkout-session', { credits: 100 });
    expect(anonymous.status).toBe(401);
    expect(stripe.requests.length).toBe(before);
  });

  it('retries a failed call with the same idempotency key, so Stripe makes one session', async () => {
    const userId = await billing.newUser();
    const before = stripe.requests.length;
    const sessionsBefore = stripe.sessions.size;
    stripe.failNext(1);
    const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits: 100 });
    expect(res.status).toBe(200);
    const tries = stripe.requests.slice(before);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.idempotencyKey).toBe(tries[1]!.idempotencyKey);
    expect(stripe.sessions.size).toBe(sessionsBefore + 1);
  });

  it('answers 502 with words to act on when Stripe keeps failing, and records no session', async () => {
    const userId = await billing.newUser();
    stripe.failNext(3);
    const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits: 100 });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'billing/payment-provider-unavailable', message: 'The payment page could not be opened just now. Please try again in a moment.' });
    expect(await billing.db('checkout_sessions').where({ user_id: userId })).toEqual([]);
  });

  it("shows a session only to its owner: someone else's and unknown ids are 404, a malformed id 400", async () => {
    const owner = await billing.newUser();
    await asUser(billing, owner, 'POST', '/api/create-checkout-session', { credits: 100 });
    const [sessionId] = [...stripe.sessions.keys()].slice(-1);
    expect((await asUser(billing, randomUUID(), 'GET', `/api/checkout-sessions/${sessionId}`)).status).toBe(404);
    expect((await asUser(billing, owner, 'GET', '/api/checkout-sessions/cs_test_unknown')).status).toBe(404);
    expect((await asUser(billing, owner, 'GET', '/api/checkout-sessions/not-a-session')).status).toBe(400);
  });

  it('serves no simulated checkout while Stripe is configured, and tells the SPA packs go through Stripe', async () => {
    const res = await billing.get(`/api/simulated-checkout/cs_sim_${'a'.repeat(48)}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('billing/simulated-checkout-off');
    expect((await billing.get('/api/config')).body.purchases).toBe('stripe');
  });
});

describe('payment settings', () => {
  const parse = (env: Record<string, string>) => parseConfig(configSchema, env);

  it('sells nothing by default, in production too: the simulated checkout only when SIMULATED_CHECKOUT=true, Stripe with a key', () => {
    const production = { NODE_ENV: 'production', SERVICE_TOKEN_SECRET: 's'.repeat(40), STORAGE_SIGNING_SECRET: 'f'.repeat(40) };
    expect(paymentsMode(parse({}))).toBe('off');
    expect(paymentsMode(parse(production))).toBe('off');
    expect(paymentsMode(parse({ ...production, SIMULATED_CHECKOUT: 'false' }))).toBe('off');
    expect(paymentsMode(parse({ SIMULATED_CHECKOUT: 'true' }))).toBe('simulated');
    expect(paymentsMode(parse({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }))).toBe('stripe');
  });

  it('refuses the simulated checkout together with a Stripe key, and a key without its webhook secret', () => {
    expect(() => parse({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', SIMULATED_CHECKOUT: 'true' })).toThrow(
      new ConfigError('SIMULATED_CHECKOUT', 'the simulated checkout cannot be on while STRIPE_SECRET_KEY is set (got "true")'),
    );
    expect(() => parse({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/invalid setting STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY/);
  });
});

describe('in production with no payment settings (the compose and Kubernetes default)', () => {
  let billing: TestBilling;

  beforeAll(async () => {
    // No STRIPE_SECRET_KEY and no SIMULATED_CHECKOUT: production's secrets only.
    billing = await startBilling({ NODE_ENV: 'production', SERVICE_TOKEN_SECRET: BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET.replace(/^./, 'x'), STORAGE_SIGNING_SECRET: 'p'.repeat(40) });
  });

  afterAll(async () => {
    await billing?.stop();
  });

  it('runs no simulated checkout: its page and its pay button answer 404 saying so, and nothing is credited', async () => {
    const userId = await billing.newUser();
    const before = await billing.balance(userId);
    const path = `/api/simulated-checkout/cs_sim_${'0'.repeat(48)}`;
    for (const res of [await billing.get(path), await billing.send('POST', `${path}/pay`, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'billing/simulated-checkout-off', message: SIMULATED_CHECKOUT_OFF_MESSAGE });
    }
    expect(await billing.balance(userId)).toBe(before);
    expect(await billing.ledger(userId)).not.toContainEqual(expect.objectContaining({ kind: 'purchase' }));
  });

  it('opens no checkout and takes no webhook (503), credits nothing, and tells the SPA purchases are off', async () => {
    const userId = await billing.newUser();
    const res = await asUser(billing, userId, 'POST', '/api/create-checkout-session', { credits: 100 });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'billing/payments-unavailable', message: 'Buying credits is not available on this server.' });
    // A completed checkout signed the way the simulated checkout would sign it: no provider, so nothing to verify or credit.
    const forged = sessionEvent('checkout.session.completed', { sessionId: `cs_sim_${'1'.repeat(48)}`, userId, credits: 2500 });
    expect((await deliverEvent(billing, forged)).status).toBe(503);
    expect(await billing.db('checkout_sessions').where({ user_id: userId })).toEqual([]);
    expect(await billing.ledger(userId)).not.toContainEqual(expect.objectContaining({ kind: 'purchase' }));
    expect((await billing.get('/api/config')).body.purchases).toBe('off');
  });
});
