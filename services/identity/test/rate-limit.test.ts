import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, freshIp, startIdentity, uniqueEmail, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity({ RATE_LIMIT_LOGIN_FAILURES: '3', RATE_LIMIT_IP_PER_MINUTE: '8', RATE_LIMIT_RESET_PER_HOUR: '2' });
});
afterAll(async () => {
  await id?.stop();
});

describe('rate limits (kept in Postgres, shared by replicas)', () => {
  it('locks an address after too many failed log-ins, even with the right password, from any IP and any replica', async () => {
    const email = uniqueEmail('brute');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    for (let i = 0; i < 3; i += 1) {
      expect((await id.post('/api/auth/login', { email, password: `wrong pass ${i}` }, { ip: freshIp() })).status).toBe(401);
    }
    const locked = await id.post('/api/auth/login', { email, password: GOOD_PASSWORD }, { ip: freshIp() });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('auth/too-many-requests');
    const replica = await id.replica();
    const viaReplica = await fetch(`${replica.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
    });
    expect(viaReplica.status).toBe(429);
  });

  it('limits auth requests per client IP (from X-Forwarded-For)', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) statuses.push((await id.post('/api/auth/login', { email: uniqueEmail('ip'), password: 'wrong pass 1' }, { ip })).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses[8]).toBe(429);
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
