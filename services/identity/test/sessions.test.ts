import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshResponseSchema } from '@frametext/contracts';
import { GOOD_PASSWORD, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity();
});
afterAll(async () => {
  await id?.stop();
});

async function signedUp() {
  const res = await id.post('/api/auth/signup', { email: uniqueEmail('session'), password: GOOD_PASSWORD });
  expect(res.status).toBe(201);
  return res.body as { idToken: string; refreshToken: string; user: { uid: string } };
}

describe('refresh', () => {
  it('spends the presented token and issues the next one with a fresh access token', async () => {
    const s = await signedUp();
    const res = await id.post('/api/auth/refresh', { refreshToken: s.refreshToken });
    expect(res.status).toBe(200);
    const next = refreshResponseSchema.parse(res.body);
    expect(next.refreshToken).not.toBe(s.refreshToken);
    expect(next.expiresIn).toBe(600);
    expect((await verifyWithJwks(id, next.idToken)).sub).toBe(s.user.uid);
    // Stored hashed: the raw token appears nowhere in the table.
    const raw = await id.db('refresh_tokens').whereRaw('token_hash = ?', [next.refreshToken]).first();
    expect(raw).toBeUndefined();
    expect((await id.post('/api/auth/refresh', { refreshToken: next.refreshToken })).status).toBe(200);
  });

  it('reuse of a spent token revokes the whole chain: the newest token stops working too', async () => {
    const s = await signedUp();
    const second = (await id.post('/api/auth/refresh', { refreshToken: s.refreshToken })).body.refreshToken as string;
    const replay = await id.post('/api/auth/refresh', { refreshToken: s.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('auth/invalid-refresh-token');
    const newest = await id.post('/api/auth/refresh', { refreshToken: second });
    expect(newest.status).toBe(401);
    expect(newest.body.error.code).toBe('auth/invalid-refresh-token');
  });

  it('reuse in one chain leaves the user\'s other sessions alone', async () => {
    const email = uniqueEmail('two-devices');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const a = (await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).body.refreshToken as string;
    const b = (await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).body.refreshToken as string;
    await id.post('/api/auth/refresh', { refreshToken: a });
    expect((await id.post('/api/auth/refresh', { refreshToken: a })).status).toBe(401);
    expect((await id.post('/api/auth/refresh', { refreshToken: b })).status).toBe(200);
  });

  it('an expired refresh token is refused', async () => {
    const s = await signedUp();
    await id.db('refresh_tokens').update({ expires_at: new Date(Date.now() - 1000) }).whereIn('family_id', id.db('refresh_sessions').select('family_id').where({ user_id: s.user.uid }));
    const res = await id.post('/api/auth/refresh', { refreshToken: s.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('auth/invalid-refresh-token');
  });

  it('an unknown token is refused; a missing one is named', async () => {
    expect((await id.post('/api/auth/refresh', { refreshToken: 'not-a-real-token' })).body.error.code).toBe('auth/invalid-refresh-token');
    const missing = await id.post('/api/auth/refresh', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('auth/missing-refresh-token');
    expect((await id.post('/api/auth/refresh', { refreshToken: 12 })).body.error.code).toBe('request/invalid-body');
  });

  it('a disabled user cannot refresh', async () => {
    const s = await signedUp();
    await id.db('users').where({ uid: s.user.uid }).update({ disabled: true });
    const res = await id.post('/api/auth/refresh', { refreshToken: s.refreshToken });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth/user-disabled');
  });
});

describe('logout', () => {
  it('revokes the chain (204), and an unknown token is still 204', async () => {
    const s = await signedUp();
    const next = (await id.post('/api/auth/refresh', { refreshToken: s.refreshToken })).body.refreshToken as string;
    const out = await id.post('/api/auth/logout', { refreshToken: next });
    expect(out.status).toBe(204);
    expect((await id.post('/api/auth/refresh', { refreshToken: next })).status).toBe(401);
    expect((await id.post('/api/auth/logout', { refreshToken: 'unknown-token' })).status).toBe(204);
    expect((await id.post('/api/auth/logout', {})).body.error.code).toBe('auth/missing-refresh-token');
  });
});

describe('the feed of ended sessions (GET /internal/revocations)', () => {
  const feed = () => id.get('/internal/revocations', { workload: 'gateway' });

  it('lists a session once it is logged out, by the sid its access tokens carry, and not before', async () => {
    const s = await signedUp();
    const { sid } = await verifyWithJwks(id, s.idToken);
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    // A refreshed token keeps its session.
    const refreshed = (await id.post('/api/auth/refresh', { refreshToken: s.refreshToken })).body as { idToken: string; refreshToken: string };
    expect((await verifyWithJwks(id, refreshed.idToken)).sid).toBe(sid);
    expect((await feed()).body.sessions).not.toContain(sid);

    await id.post('/api/auth/logout', { refreshToken: refreshed.refreshToken });
    const after = await feed();
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-store');
    expect(after.body.sessions).toContain(sid);
  });

  it('lists every session of a user whose password was reset', async () => {
    const email = uniqueEmail('reset-ends-all');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const sids = await Promise.all(
      [1, 2].map(async () => (await verifyWithJwks(id, (await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).body.idToken)).sid),
    );
    const user = await id.db('users').where({ email }).first();
    await id.db('refresh_sessions').where({ user_id: user.uid }).update({ revoked_at: new Date(), revoked_reason: 'password-reset' });
    expect((await feed()).body.sessions).toEqual(expect.arrayContaining(sids));
  });

  it('forgets a session once its last access token has expired', async () => {
    const s = await signedUp();
    const { sid } = await verifyWithJwks(id, s.idToken);
    await id.db('refresh_sessions').where({ family_id: sid }).update({ revoked_at: new Date(Date.now() - (600 + 6 * 60) * 1000) });
    expect((await feed()).body.sessions).not.toContain(sid);
  });

  it('answers 401 to anyone without a workload token', async () => {
    const anonymous = await id.get('/internal/revocations');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('auth/workload-refused');
  });
});

