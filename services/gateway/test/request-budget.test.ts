// The counting of each person's requests (all their API tokens and browser sessions) across gateway replicas
// (src/request-budget.ts): each replica leases from one shared budget, here identity's bucket arithmetic in memory on
// a clock the test moves.
import { describe, expect, it } from 'vitest';
import { AppError, perMinute, takeFromBucket, type BucketState } from '@frametext/service-kit';
import { RequestBudget, rateLimitedMessage, type BudgetLease } from '../src/request-budget.js';

const PERSON = '3f0c7a52-8a4e-4c1e-9a55-0d6b1b7f2c11';
const LEASE_MS = 5_000;

class Clock {
  now = 1_000_000;
  advance(ms: number) {
    this.now += ms;
  }
}

/** identity's side: one bucket per person, counted as identity counts it (takeFromBucket under the row's lock). */
function sharedCount(clock: Clock) {
  const buckets = new Map<string, BucketState>();
  const calls: { take: number; giveBack: number }[] = [];
  let failure: Error | undefined;
  const lease: BudgetLease = async (request) => {
    calls.push({ take: request.take, giveBack: request.giveBack });
    if (failure) throw failure;
    const taken = takeFromBucket(buckets.get(request.userId), clock.now, perMinute(request.requestsPerMinute), request.take, request.giveBack);
    buckets.set(request.userId, taken.state);
    return { granted: taken.granted, retryAfterMs: taken.retryAfterMs };
  };
  return {
    lease,
    calls,
    failWith(err: Error | undefined) {
      failure = err;
    },
  };
}

function replica(requestsPerMinute: number, clock: Clock, lease: BudgetLease, warnings: unknown[] = []) {
  return new RequestBudget({ requestsPerMinute, lease, leaseMs: LEASE_MS, retryIdentityMs: 5_000, logger: { warn: (o: unknown) => warnings.push(o) }, now: () => clock.now });
}

/** Spends one request; its outcome as a status a client would see, and the Retry-After it would carry. */
async function send(budget: RequestBudget, person = PERSON): Promise<{ status: number; retryAfter?: number; error?: AppError }> {
  let retryAfter: number | undefined;
  try {
    await budget.spend(person, (s) => (retryAfter = s));
    return { status: 200 };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, retryAfter, error: err };
  }
}

describe('one budget for every replica', () => {
  it('requests spread over two replicas get 429 after the budget, not twice it, and the budget refills', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const replicas = [replica(10, clock, identity.lease), replica(10, clock, identity.lease)];
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await send(replicas[i % 2]!)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);

    const refused = await send(replicas[0]!);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(6);
    expect(refused.error).toMatchObject({ code: 'gateway/rate-limited', details: { retryAfterSeconds: refused.retryAfter } });
    expect(refused.error!.message).toBe(rateLimitedMessage(10, refused.retryAfter!));
    expect(refused.error!.message).toMatch(/^Your account made more than 10 requests in a minute \(your API tokens and browser sessions count together\)\. Try again in \d s\.$/);

    // One request refills every 6 s; a minute refills all ten.
    clock.advance(6_000);
    expect((await send(replicas[1]!)).status).toBe(200);
    expect((await send(replicas[0]!)).status).toBe(429);
    clock.advance(60_000);
    const after: number[] = [];
    for (let i = 0; i < 12; i++) after.push((await send(replicas[i % 2]!)).status);
    expect(after.filter((s) => s === 200)).toHaveLength(10);
  });

  it('each person has their own budget', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const gateway = replica(3, clock, identity.lease);
    for (let i = 0; i < 3; i++) expect((await send(gateway)).status).toBe(200);
    expect((await send(gateway)).status).toBe(429);
    expect((await send(gateway, 'another-person')).status).toBe(200);
  });

  it('a burst of concurrent requests at a replica that holds nothing yet gets exactly the budget', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const gateway = replica(10, clock, identity.lease);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => send(gateway)));
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(10);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(20);
  });

  it('over the whole run, three replicas at full speed serve no more than one bucket would, plus what a lease can hold', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const perMinuteLimit = 120;
    const replicas = [0, 1, 2].map(() => replica(perMinuteLimit, clock, identity.lease));
    const servedAt: number[] = [];
    const start = clock.now;
    for (let i = 0; i < 3 * 60 * 20; i++) {
      // 20 requests a second for three minutes, round robin.
      if ((await send(replicas[i % 3]!)).status === 200) servedAt.push(clock.now - start);
      clock.advance(50);
    }
    // One bucket: the burst, plus a refill of 2 a second over 180 s.
    const oneBucket = perMinuteLimit + 180 * 2;
    expect(servedAt.length).toBeLessThanOrEqual(oneBucket);
    expect(servedAt.length).toBeGreaterThanOrEqual(oneBucket - 2 * 3);
    // In any minute: the burst and a minute's refill (one bucket's most), plus at most leaseMs of refill.
    for (const from of servedAt) {
      const inMinute = servedAt.filter((t) => t >= from && t < from + 60_000).length;
      expect(inMinute).toBeLessThanOrEqual(2 * perMinuteLimit + (LEASE_MS / 60_000) * perMinuteLimit);
    }
  });
});

describe('no call on the request path while leased requests last', () => {
  it('spends what it leased ahead while identity is still answering the next lease', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    let hold = false;
    const held: (() => void)[] = [];
    const slowLease: BudgetLease = async (request) => {
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return identity.lease(request);
    };
    const gateway = replica(120, clock, slowLease);
    expect((await send(gateway)).status).toBe(200);
    expect(gateway.reserve).toBe(2);
    hold = true;
    // Two leased ahead: both go through although identity answers nothing meanwhile.
    expect((await send(gateway)).status).toBe(200);
    expect((await send(gateway)).status).toBe(200);
    expect(held.length).toBe(1);
    held.splice(0).forEach((resolve) => resolve());
  });

  it('refuses a spent budget without asking identity until it refills', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const gateway = replica(10, clock, identity.lease);
    for (let i = 0; i < 10; i++) await send(gateway);
    expect((await send(gateway)).status).toBe(429);
    const asked = identity.calls.length;
    for (let i = 0; i < 100; i++) expect((await send(gateway)).status).toBe(429);
    expect(identity.calls.length).toBe(asked);
    clock.advance(6_000);
    expect((await send(gateway)).status).toBe(200);
    expect(identity.calls.length).toBeGreaterThan(asked);
  });

  it(`gives back what it leased and did not spend within ${LEASE_MS} ms`, async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const [a, b] = [replica(60, clock, identity.lease), replica(60, clock, identity.lease)];
    expect((await send(a)).status).toBe(200); // a leased 2, holds 1
    let servedByB = 0;
    while ((await send(b)).status === 200) servedByB++;
    expect(servedByB).toBe(58);
    clock.advance(LEASE_MS);
    // 5 s refilled 5; a's next lease gives its unspent one back, so the two replicas share 6, not 5.
    expect((await send(a)).status).toBe(200);
    expect(identity.calls.at(-1)).toMatchObject({ giveBack: 1 });
    let servedAfter = 1;
    for (let i = 0; i < 10; i++) if ((await send(i % 2 ? a : b)).status === 200) servedAfter++;
    expect(servedAfter).toBe(6);
  });
});

describe('when identity cannot count', () => {
  it('fails open to each replica’s own limit, never a 5xx, and asks identity again a while later', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const warnings: unknown[] = [];
    const gateway = replica(10, clock, identity.lease, warnings);
    identity.failWith(new AppError(503, 'gateway/api-tokens-unavailable', 'API tokens cannot be checked right now. Please try again shortly.'));
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await send(gateway)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429]);
    expect(identity.calls).toHaveLength(1);
    expect(warnings).toHaveLength(1);

    identity.failWith(undefined);
    clock.advance(6_000);
    // Back to the shared count, which never saw the ten: this replica's own count still holds them.
    expect((await send(gateway)).status).toBe(200);
    expect(identity.calls.length).toBe(2);
    expect((await send(gateway)).status).toBe(429);
  });

  it('identity refusing the gateway itself (a workload token it does not accept) fails open too: no 4xx reaches the client', async () => {
    const clock = new Clock();
    const identity = sharedCount(clock);
    const warnings: unknown[] = [];
    const gateway = replica(10, clock, identity.lease, warnings);
    identity.failWith(new AppError(401, 'auth/workload-refused', 'This caller may not call identity.'));
    expect((await send(gateway)).status).toBe(200);
    expect(warnings).toHaveLength(1);
  });
});
