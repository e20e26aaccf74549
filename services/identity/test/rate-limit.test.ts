import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWaitSeconds } from '../src/domain/rate-limits.js';
import { GOOD_PASSWORD, freshIp, startIdentity, uniqueEmail, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity({ RATE_LIMIT_LOGIN_FAILURES: '3', LOGIN_FREE_FAILURES: '3', RATE_LIMIT_IP_PER_MINUTE: '10', RATE_LIMIT_RESET_PER_HOUR: '2' });
});
afterAll(async () => {
  await id?.stop();
});

describe('rate limits (kept in Postgres, shared by replicas)', () => {
  const login = (email: string, password: string, ip: string) => id.post('/api/auth/login', { email, password }, { ip });
  /** As if `seconds` had passed since this address's last failure on the account. */
  const age = (email: string, ip: string, seconds: number) =>
    id.db('login_failures').where({ email, address: ip }).update({ last_failure_at: id.db.raw(`last_failure_at - make_interval(secs => ?)`, [seconds]) });

  it('makes an address that keeps failing wait, even with the right password, on every replica', async () => {
    const email = uniqueEmail('brute');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    // The owner's own address: the account-wide limit does not apply to it, only its own failures count.
    const attacker = freshIp();
    expect((await login(email, GOOD_PASSWORD, attacker)).status).toBe(200);
    const replica = await id.replica();
    for (let i = 0; i < 3; i += 1) expect((await login(email, `wrong pass ${i}`, attacker)).status).toBe(401);
    expect(await id.db('login_failures').where({ email, address: attacker }).first('failures')).toEqual({ failures: 3 });

    // As if it had gone on failing: 8 in a row wait 2^(8-3) = 32 s after the last.
    await id.db('login_failures').where({ email, address: attacker }).update({ failures: 8, last_failure_at: id.db.fn.now() });
    const waiting = await login(email, GOOD_PASSWORD, attacker);
    expect(waiting.status).toBe(429);
    expect(waiting.body.error.code).toBe('auth/too-many-requests');
    expect(waiting.body.error.details.retryAfterSeconds).toBeGreaterThan(20);
    expect(waiting.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(32);
    const viaReplica = await fetch(`${replica.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': attacker },
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
    });
    expect(viaReplica.status).toBe(429);

    // Once the wait is over, the right password signs in and forgives the failures.
    await age(email, attacker, 32);
    expect((await login(email, GOOD_PASSWORD, attacker)).status).toBe(200);
    expect(await id.db('login_failures').where({ email, address: attacker }).first()).toBeUndefined();
  });

  it('doubles the wait after each failure past the free ones, up to the limit', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((f) => loginWaitSeconds(f, 3, 900))).toEqual([0, 0, 1, 2, 4, 8, 16, 900]);
  });

  it('never locks the owner out from an address they signed in from, whatever others try', async () => {
    const email = uniqueEmail('owner');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    const home = freshIp();
    expect((await login(email, GOOD_PASSWORD, home)).status).toBe(200);

    // Guesses from many addresses: each stays under its own limit, together they pass the account's.
    for (let i = 0; i < 3; i += 1) expect((await login(email, `guess ${i}`, freshIp())).status).toBe(401);
    const stranger = await login(email, GOOD_PASSWORD, freshIp());
    expect(stranger.status).toBe(429);
    expect((await login(email, GOOD_PASSWORD, home)).status).toBe(200);
  });

  it('limits auth requests per client IP (from X-Forwarded-For)', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await id.post('/api/auth/login', { email: uniqueEmail('ip'), password: 'wrong pass 1' }, { ip })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // Another client is not affected.
    expect((await id.post('/api/auth/login', { email: uniqueEmail('ip'), password: 'wrong pass 1' }, { ip: freshIp() })).status).toBe(401);
  });

  it('limits reset e-mails per address', async () => {
    const email = uniqueEmail('flood');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    expect((await id.post('/api/auth/password-reset', { email }, { ip: freshIp() })).status).toBe(204);
    expect((await id.post('/api/auth/password-reset', { email }, { ip: freshIp() })).status).toBe(204);
    const third = await id.post('/api/auth/password-reset', { email }, { ip: freshIp() });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('auth/too-many-requests');
  });
});
