import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeLocalUseResponseSchema, type ChargeLocalUseRequest } from '@frametext/contracts';
import { startBilling, type TestBilling } from './helpers.js';

let billing: TestBilling;

beforeAll(async () => {
  billing = await startBilling();
});

afterAll(async () => {
  await billing?.stop();
});

const localId = () => `local-${Date.now()}-${randomUUID().slice(0, 6)}`;
/** POST /internal/credits/local-use as the upload service makes it: its workload token and the user's own token. */
const charge = (req: ChargeLocalUseRequest, as: { user?: string; workload?: string } = {}) =>
  billing.service.post('/internal/credits/local-use', req, { user: as.user ?? req.userId, workload: as.workload ?? 'upload' });

describe('POST /internal/credits/local-use', () => {
  it('charges ceil(frames x 0.05) once per upload id: a repeat answers the first charge and moves nothing', async () => {
    const userId = await billing.newUser();
    const uploadId = localId();
    const first = await charge({ uploadId, userId, frames: 21 });
    expect(first.status).toBe(200);
    expect(chargeLocalUseResponseSchema.parse(first.body)).toEqual({ uploadId, creditCost: 2, credits: 48, charged: true });

    const again = await charge({ uploadId, userId, frames: 200 });
    expect(again.body).toEqual({ uploadId, creditCost: 2, credits: 48, charged: false });
    expect(await billing.balance(userId)).toBe(48);
    expect(await billing.ledgerBalance(userId)).toBe(48);
    expect((await billing.ledger(userId)).map((m) => [m.kind, m.credits, m.uploadId])).toEqual([
      ['grant', 50, null],
      ['local_use', 2, uploadId],
    ]);
  });

  it('charges once when the same run is logged many times at once', async () => {
    const userId = await billing.newUser();
    const uploadId = localId();
    const answers = await Promise.all(Array.from({ length: 6 }, () => charge({ uploadId, userId, frames: 40 })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.charged === true)).toHaveLength(1);
    expect(await billing.balance(userId)).toBe(48);
    expect((await billing.ledger(userId)).filter((m) => m.kind === 'local_use')).toHaveLength(1);
  });

  it('refuses with 402 and the spec sentence when the balance is below the cost, and moves nothing', async () => {
    const userId = await billing.newUser();
    await billing.reserve({ uploadId: randomUUID(), userId, engine: 'cloud', frames: 49 });
    const res = await charge({ uploadId: localId(), userId, frames: 40 });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'billing/insufficient-credits', message: 'You have 1 credits but this operation requires 2.', details: { credits: 1, creditsRequired: 2 } });
    expect(await billing.balance(userId)).toBe(1);
    // One credit still pays for a run of up to 20 frames.
    expect((await charge({ uploadId: localId(), userId, frames: 20 })).body).toMatchObject({ creditCost: 1, credits: 0, charged: true });
  });

  it('keeps two users apart when their browsers chose the same local id', async () => {
    const [ada, bob] = [await billing.newUser(), await billing.newUser()];
    const uploadId = localId();
    expect((await charge({ uploadId, userId: ada, frames: 1 })).body.charged).toBe(true);
    expect((await charge({ uploadId, userId: bob, frames: 1 })).body.charged).toBe(true);
    expect([await billing.balance(ada), await billing.balance(bob)]).toEqual([49, 49]);
  });

  it('answers only the upload service, for the signed-in user, with a local- id and 1..200 frames', async () => {
    const userId = await billing.newUser();
    expect((await charge({ uploadId: localId(), userId, frames: 1 }, { workload: 'results' })).status).toBe(401);
    const other = await charge({ uploadId: localId(), userId, frames: 1 }, { user: await billing.newUser() });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('billing/not-your-credits');
    expect((await charge({ uploadId: randomUUID(), userId, frames: 1 })).status).toBe(400);
    expect((await charge({ uploadId: localId(), userId, frames: 201 })).status).toBe(400);
    expect(await billing.balance(userId)).toBe(50);
  });
});
