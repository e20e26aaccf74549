import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_PACKS, MAX_FRAMES, profileSchema, publicConfigSchema } from '@frametext/contracts';
import { connect, type ChannelModel } from 'amqplib';
import { buildEnvelope } from '@frametext/service-kit';
import { TEST_RABBITMQ_URL, eventually, uniqueName } from '@frametext/service-kit/testing';
import { emailConfirmed, startBilling, userCreated, type TestBilling } from './helpers.js';

describe('with the default settings', () => {
  let billing: TestBilling;

  beforeAll(async () => {
    // A queue of its own, which no Cloud AI worker consumes.
    billing = await startBilling({ OCR_CLOUD_QUEUE: uniqueName('no_cloud_worker') });
  });

  afterAll(async () => {
    await billing?.stop();
  });

  it('grants nothing at sign-up (user.created.v1), however often it arrives: the free credits wait for the e-mail', async () => {
    const user = userCreated();
    await billing.deliver('user.created.v1', user);
    await billing.deliver('user.created.v1', user); // the same fact published again under a new id
    expect(await billing.ledger(user.uid)).toEqual([]);
    expect((await billing.get('/api/getUserData', user.uid)).body).toMatchObject({ email: user.email, credits: 0 });
  });

  it('grants the free credits once the e-mail is confirmed, however often user.email-confirmed.v1 arrives', async () => {
    const user = userCreated();
    await billing.deliver('user.created.v1', user);
    const envelope = buildEnvelope('user.email-confirmed.v1', emailConfirmed(user.uid));
    await billing.publish(envelope);
    await billing.publish(envelope); // a redelivery: same message id
    await billing.waitHandled(envelope.id);
    await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid)); // the same fact published again under a new id

    expect(await billing.ledger(user.uid)).toEqual([expect.objectContaining({ kind: 'grant', credits: 50 })]);
    expect(await billing.balance(user.uid)).toBe(50);
    expect(await billing.ledgerBalance(user.uid)).toBe(50);
  });

  it('grants on a confirmation that overtook the sign-up, and keeps the e-mail that arrives after it', async () => {
    const user = userCreated();
    await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));
    expect(await billing.balance(user.uid)).toBe(50);
    await billing.deliver('user.created.v1', user);
    expect((await billing.get('/api/getUserData', user.uid)).body).toMatchObject({ email: user.email, credits: 50 });
    expect(await billing.ledger(user.uid)).toEqual([expect.objectContaining({ kind: 'grant', credits: 50 })]);
  });

  it('getUserData answers the profile: email, credits, free tier, firstLogin until the first reservation', async () => {
    const user = userCreated();
    await billing.deliver('user.created.v1', user);
    await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));

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

  it('getUserData answers 401 to a caller without a valid access token, whatever headers it sends', async () => {
    const uid = await billing.newUser();
    for (const opts of [{}, { headers: { 'x-user-id': uid } }, { token: 'not.a.jwt' }]) {
      const res = await billing.send('GET', '/api/getUserData', opts);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toMatch(/^auth\/(missing-token|invalid-token)$/);
      expect(JSON.stringify(res.body)).not.toContain('@example.com');
    }
  });

  it('config answers the free credits, rates and limits; Cloud AI unavailable while no worker runs it', async () => {
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

describe('with FREE_CREDITS=20, while a Cloud AI worker consumes its queue', () => {
  let billing: TestBilling;
  let broker: ChannelModel;
  const cloudQueue = uniqueName('cloud_worker');

  beforeAll(async () => {
    billing = await startBilling({ FREE_CREDITS: '20', OCR_CLOUD_QUEUE: cloudQueue });
    broker = await connect(TEST_RABBITMQ_URL);
  });

  afterAll(async () => {
    await billing?.stop();
    const ch = await broker.createChannel();
    await ch.deleteQueue(cloudQueue);
    await broker.close();
  });

  it('grants and announces the configured figure, and offers Cloud AI exactly while a worker takes its frames', async () => {
    const worker = await broker.createChannel();
    await worker.assertQueue(cloudQueue, { durable: true });
    const { consumerTag } = await worker.consume(cloudQueue, () => undefined);
    const cloud = async () => publicConfigSchema.parse((await billing.get('/api/config')).body).engines.find((e) => e.engine === 'cloud');

    const config = publicConfigSchema.parse((await billing.get('/api/config')).body);
    expect(config.freeCredits).toBe(20);
    expect(await eventually(async () => ((await cloud())?.available ? cloud() : undefined))).toMatchObject({ available: true, reason: null });

    // The worker stops: Cloud AI is withdrawn, with the reason.
    await worker.cancel(consumerTag);
    expect(await eventually(async () => ((await cloud())?.available === false ? cloud() : undefined))).toMatchObject({ reason: 'Cloud AI is not configured on this server; use Basic.' });
    await worker.close();

    const uid = await billing.newUser();
    expect((await billing.get('/api/getUserData', uid)).body.credits).toBe(20);
  });
});
