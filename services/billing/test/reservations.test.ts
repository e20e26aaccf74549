import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCreditsResponseSchema } from '@frametext/contracts';
import { startBilling, type TestBilling } from './helpers.js';

let billing: TestBilling;

beforeAll(async () => {
  billing = await startBilling();
});

afterAll(async () => {
  await billing?.stop();
});

describe('POST /internal/credits/reserve', () => {
  it('holds the whole cost when the balance covers it', async () => {
    const userId = await billing.newUser();
    const uploadId = randomUUID();
    const res = await billing.reserve({ uploadId, userId, engine: 'server', frames: 360 });
    expect(res.status).toBe(200);
    expect(reserveCreditsResponseSchema.parse(res.body)).toEqual({ uploadId, framesRequested: 360, maxFrames: 360, creditCost: 36, credits: 50, creditsRequired: 36 });
    expect(await billing.balance(userId)).toBe(14);
    expect(await billing.ledgerBalance(userId)).toBe(14);
  });

  it('pays for only the first X frames when the balance falls short, and rounds the cost up', async () => {
    const userId = await billing.newUser();
    const first = await billing.reserve({ uploadId: randomUUID(), userId, engine: 'server', frames: 11 });
    expect(first.body).toMatchObject({ maxFrames: 11, creditCost: 2 });

    // 48 credits left: cloud at 1 credit a frame pays for the first 48 of 120 frames.
    const second = await billing.reserve({ uploadId: randomUUID(), userId, engine: 'cloud', frames: 120 });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ framesRequested: 120, maxFrames: 48, creditCost: 48, credits: 48, creditsRequired: 120 });
    expect(await billing.balance(userId)).toBe(0);
  });

  it('pays for the most server frames whose rounded-up cost fits (3 credits: 30 frames of 45)', async () => {
    const userId = await billing.newUser();
    await billing.reserve({ uploadId: randomUUID(), userId, engine: 'cloud', frames: 47 });
    const res = await billing.reserve({ uploadId: randomUUID(), userId, engine: 'server', frames: 45 });
    expect(res.body).toMatchObject({ maxFrames: 30, creditCost: 3, credits: 3, creditsRequired: 5 });
    expect(await billing.balance(userId)).toBe(0);
  });

  it('answers 402 with the spec sentence when the balance is empty, and moves nothing', async () => {
    const userId = await billing.newUser();
    await billing.reserve({ uploadId: randomUUID(), userId, engine: 'cloud', frames: 50 });
    const res = await billing.reserve({ uploadId: randomUUID(), userId, engine: 'server', frames: 1 });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'billing/insufficient-credits', message: 'Not enough credits, purchase some more before uploading.' });
    expect(await billing.balance(userId)).toBe(0);
    expect((await billing.ledger(userId)).map((m) => m.kind)).toEqual(['grant', 'reserve']);
  });

  it('answers 402 for a user billing has never heard of', async () => {
    const res = await billing.reserve({ uploadId: randomUUID(), userId: randomUUID(), engine: 'server', frames: 10 });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('billing/insufficient-credits');
  });

  it('is idempotent by uploadId: a second call answers the same reservation and moves nothing', async () => {
    const userId = await billing.newUser();
    const uploadId = randomUUID();
    const first = await billing.reserve({ uploadId, userId, engine: 'cloud', frames: 20 });
    const again = await billing.reserve({ uploadId, userId, engine: 'cloud', frames: 20 });
    const parallel = await Promise.all([1, 2, 3].map(() => billing.reserve({ uploadId, userId, engine: 'cloud', frames: 20 })));
    for (const res of [again, ...parallel]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first.body);
    }
    expect(await billing.balance(userId)).toBe(30);
    expect((await billing.ledger(userId)).filter((m) => m.kind === 'reserve')).toHaveLength(1);
  });

  it('refuses an uploadId that holds credits for another user', async () => {
    const owner = await billing.newUser();
    const other = await billing.newUser();
    const uploadId = randomUUID();
    await billing.reserve({ uploadId, userId: owner, engine: 'cloud', frames: 5 });
    const res = await billing.reserve({ uploadId, userId: other, engine: 'cloud', frames: 5 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('billing/reservation-conflict');
    expect(await billing.balance(other)).toBe(50);
  });

  it('never overspends under 20 concurrent reservations, and the balance always equals the ledger', async () => {
    const userId = await billing.newUser();
    const answers = await Promise.all(Array.from({ length: 20 }, () => billing.reserve({ uploadId: randomUUID(), userId, engine: 'cloud', frames: 7 })));
    const granted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    // 50 credits: seven uploads of 7 frames, then one gets the last frame, and the rest are refused.
    expect(granted).toHaveLength(8);
    expect(granted.map((a) => a.body.creditCost as number).sort((a, b) => a - b)).toEqual([1, 7, 7, 7, 7, 7, 7, 7]);
    expect(refused.every((a) => a.status === 402)).toBe(true);
    expect(await billing.balance(userId)).toBe(0);
    expect(await billing.ledgerBalance(userId)).toBe(0);
    const reserved = (await billing.ledger(userId)).filter((m) => m.kind === 'reserve').reduce((s, m) => s + m.credits, 0);
    expect(reserved).toBe(50);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const userId = randomUUID();
    const cases: [unknown, string][] = [
      [{ userId, engine: 'server', frames: 10 }, 'uploadId'],
      [{ uploadId: randomUUID(), engine: 'server', frames: 10 }, 'userId'],
      [{ uploadId: randomUUID(), userId, engine: 'local', frames: 10 }, 'engine'],
      [{ uploadId: randomUUID(), userId, engine: 'server', frames: 0 }, 'frames'],
      [{ uploadId: randomUUID(), userId, engine: 'server', frames: 361 }, 'frames'],
      [{ uploadId: randomUUID(), userId, engine: 'server', frames: 2.5 }, 'frames'],
      [{ uploadId: randomUUID(), userId, engine: 'server', frames: '10' }, 'frames'],
      [[], ''],
    ];
    for (const [body, field] of cases) {
      const res = await billing.send('POST', '/internal/credits/reserve', { body, user: userId, workload: 'upload' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('request/invalid-body');
      if (field) expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    const malformed = await billing.send('POST', '/internal/credits/reserve', { raw: '{"uploadId":', contentType: 'application/json', user: userId, workload: 'upload' });
    expect(malformed.status).toBe(400);
    const empty = await billing.send('POST', '/internal/credits/reserve', { raw: '', contentType: 'text/plain', user: userId, workload: 'upload' });
    expect(empty.status).toBe(400);
  });
});

describe('who may hold credits', () => {
  const reserveAs = (opts: Parameters<TestBilling['send']>[2], req: object) => billing.send('POST', '/internal/credits/reserve', { ...opts, body: req });

  it('refuses a caller that is not the upload service, or carries no proof at all, with 401 and moves nothing', async () => {
    const userId = await billing.newUser();
    const req = { uploadId: randomUUID(), userId, engine: 'server', frames: 10 };
    const attempts = [
      reserveAs({}, req),
      reserveAs({ user: userId }, req),
      reserveAs({ workload: 'results', user: userId }, req),
      reserveAs({ headers: { 'x-workload-token': 'not-a-token' }, user: userId }, req),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('auth/workload-refused');
    }
    expect(await billing.balance(userId)).toBe(50);
  });

  it("needs the user's own token: none is 401, another user's is 403, and nothing moves", async () => {
    const victim = await billing.newUser();
    const attacker = await billing.newUser();
    const req = { uploadId: randomUUID(), userId: victim, engine: 'server', frames: 10 };
    const none = await reserveAs({ workload: 'upload' }, req);
    expect(none.status).toBe(401);
    const other = await reserveAs({ workload: 'upload', user: attacker }, req);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('billing/not-your-credits');
    expect(await billing.balance(victim)).toBe(50);
  });

  it('refuses the token of a session that has ended, within the feed interval', async () => {
    const userId = await billing.newUser();
    const sessionId = randomUUID();
    const token = billing.service.issuer.tokenFor(userId, { sessionId });
    const before = await reserveAs({ workload: 'upload', token }, { uploadId: randomUUID(), userId, engine: 'server', frames: 10 });
    expect(before.status).toBe(200);
    billing.service.issuer.revoke(sessionId);
    const attempt = () => reserveAs({ workload: 'upload', token }, { uploadId: randomUUID(), userId, engine: 'server', frames: 10 });
    // The feed is read every 100 ms here (every 2 s by default).
    await expect.poll(async () => (await attempt()).status, { timeout: 5_000 }).toBe(401);
    const held = await billing.balance(userId);
    const after = await attempt();
    expect(after.body.error.code).toBe('auth/session-ended');
    expect(await billing.balance(userId)).toBe(held);
    // Another session of the same user is unaffected.
    expect((await reserveAs({ workload: 'upload', user: userId }, { uploadId: randomUUID(), userId, engine: 'server', frames: 10 })).status).toBe(200);
  });
});
