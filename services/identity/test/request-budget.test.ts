import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../src/domain/maintenance.js';
import { startIdentity, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity();
});
afterAll(async () => {
  await id?.stop();
});

const budget = (body: unknown, workload: string | null = 'gateway') =>
  id.service.request('POST', '/internal/request-budget', { ...(workload ? { workload } : {}), body });
const lease = (userId: string, take: number, giveBack = 0) => budget({ userId, take, giveBack, requestsPerMinute: 10 });

describe("a person's request budget (the gateway only)", () => {
  it('leases from one budget per person whoever asks, takes back what was not spent, and says when it refills', async () => {
    const person = randomUUID();
    expect((await lease(person, 6)).body).toEqual({ granted: 6, retryAfterMs: 0 });
    // Another gateway replica asking for the same person (another of their tokens, or their browser) draws on the same ten.
    const rest = await lease(person, 6);
    expect(rest.status).toBe(200);
    expect(rest.body.granted).toBe(4);
    // One request a 6 s: the next is at most 6 s away.
    expect(rest.body.retryAfterMs).toBeGreaterThan(5_000);
    expect(rest.body.retryAfterMs).toBeLessThanOrEqual(6_000);
    expect((await lease(person, 3, 2)).body.granted).toBe(2);
    expect((await id.db('request_budgets').where({ user_id: person }).first()).tokens).toBeLessThan(1);
    // Someone else has their own budget.
    const other = randomUUID();
    expect((await lease(other, 10)).body.granted).toBe(10);

    // Maintenance drops a budget idle long enough to be full again, and keeps one in use.
    await id.db('request_budgets').where({ user_id: person }).update({ refilled_at: new Date(Date.now() - 11 * 60_000) });
    await runMaintenance(id.ctx);
    expect(await id.db('request_budgets').where({ user_id: person }).first()).toBeUndefined();
    expect(await id.db('request_budgets').where({ user_id: other }).first()).toBeDefined();
    expect((await lease(person, 11)).body.granted).toBe(10);
  });

  it('refuses a caller that is not the gateway, and a bad body', async () => {
    const body = { userId: randomUUID(), take: 1, giveBack: 0, requestsPerMinute: 10 };
    expect((await budget(body, 'upload')).status).toBe(401);
    expect((await budget(body, null)).status).toBe(401);
    const bad = await budget({ ...body, take: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('take');
    expect((await budget({ ...body, tokenId: body.userId })).status).toBe(400);
    expect((await budget(body)).body.granted).toBe(1);
  });
});
