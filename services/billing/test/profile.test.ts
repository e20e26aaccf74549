import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_PACKS, MAX_FRAMES, profileSchema, publicConfigSchema } from '@frametext/contracts';
import { buildEnvelope } from '@frametext/service-kit';
import { startBilling, userCreated, type TestBilling } from './helpers.js';

describe('with the default settings', () => {
  let billing: TestBilling;

  beforeAll(async () => {
    billing = await startBilling();
  });

  afterAll(async () => {
    await billing?.stop();
  });

  it('grants the free credits once, however often user.created.v1 arrives', async () => {
    const user = userCreated();
    const envelope = buildEnvelope('user.created.v1', user);
    await billing.publish(envelope);
    await billing.publish(envelope); // a redelivery: same message id
    await billing.waitHandled(envelope.id);
    await billing.deliver('user.created.v1', user); // the same fact published again under a new id

    expect(await billing.ledger(user.uid)).toEqual([expect.objectContaining({ kind: 'grant', credits: 50 })]);
    expect(await billing.balance(user.uid)).toBe(50);
    expect(await billing.ledgerBalance(user.uid)).toBe(50);
  });

  it('getUserData answers the profile: email, credits, free tier, firstLogin until the first reservation', async () => {
    const user = userCreated();
    await billing.deliver('user.created.v1', user);

    const before = await billing.get('/api/getUserData', user.uid);
    expect(before.status).toBe(200);
    expect(profileSchema.parse(before.body)).toEqual({ uid: user.uid, email: user.email, credits: 50, subscription_tier: 'free', firstLogin: true, createdAt: user.createdAt });

    await billing.reserve({ uploadId: randomUUID(), userId: user.uid, engine: 'cloud', frames: 12 });
    const after = await billing.get('/api/getUserData', user.uid);
    expect(after.body).toMatchObject({ credits: 38, firstLogin: false });
  });

  it('getUserData for a user billing has not heard of yet: email "" and 0 credits', async () => {
    const uid = randomUUID();
    const res = await billing.get('/api/getUserData', uid);
    expect(res.status).toBe(200);
    expect(profileSchema.parse(res.body)).toEqual({ uid, email: '', credits: 0, subscription_tier: 'free', firstLogin: true });
  });

  it('getUserData without the gateway user header answers 403', async () => {
    const res = await billing.get('/api/getUserData');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth/missing-user');
  });

  it('config answers the free credits, rates and limits; Cloud AI unavailable unless configured', async () => {
    const res = await billing.get('/api/config');
    expect(res.status).toBe(200);
    const config = publicConfigSchema.parse(res.body);
    expect(config.freeCredits).toBe(50);
    expect(config.maxFrames).toBe(MAX_FRAMES);
    expect(config.creditPacks).toEqual(CREDIT_PACKS.map((p) => ({ ...p })));
    expect(config.engines).toEqual([
      { engine: 'cloud', available: false, reason: 'Cloud AI is not configured on this server; use Basic.', creditsPerFrame: 1, framesPerCredit: 1 },
      { engine: 'server', available: true, reason: null, creditsPerFrame: 0.1, framesPerCredit: 10 },
      { engine: 'local', available: true, reason: null, creditsPerFrame: 0.05, framesPerCredit: 20 },
    ]);
  });

  it('the internal reservation route is not under /api (the gateway routes /api only)', async () => {
    const res = await billing.post('/api/credits/reserve', { uploadId: randomUUID(), userId: randomUUID(), engine: 'cloud', frames: 1 });
    expect(res.status).toBe(404);
  });
});

describe('with FREE_CREDITS=20 and CLOUD_OCR_ENABLED=true', () => {
  let billing: TestBilling;

  beforeAll(async () => {
    billing = await startBilling({ FREE_CREDITS: '20', CLOUD_OCR_ENABLED: 'true' });
  });

  afterAll(async () => {
    await billing?.stop();
  });

  it('grants and announces the configured figure, and offers Cloud AI', async () => {
    const config = publicConfigSchema.parse((await billing.get('/api/config')).body);
    expect(config.freeCredits).toBe(20);
    expect(config.engines.find((e) => e.engine === 'cloud')).toMatchObject({ available: true, reason: null });

    const uid = await billing.newUser();
    expect((await billing.get('/api/getUserData', uid)).body.credits).toBe(20);
  });
});
