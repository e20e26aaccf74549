import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_PATTERN, API_TOKENS_PER_USER, createApiTokenResponseSchema, exchangeApiTokenResponseSchema, listApiTokensResponseSchema } from '@frametext/contracts';
import type { RequestOptions } from '@frametext/service-kit/testing';
import { completeLogin, createUser } from '../src/domain/accounts.js';
import { GOOD_PASSWORD, freshIp, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity();
});
afterAll(async () => {
  await id?.stop();
});

const call = (method: string, path: string, opts: RequestOptions = {}) =>
  id.service.request(method, path, { ...opts, headers: { 'x-forwarded-for': freshIp(), ...opts.headers } });

async function signedUp() {
  const res = await id.post('/api/auth/signup', { email: uniqueEmail('tokens'), password: GOOD_PASSWORD });
  expect(res.status).toBe(201);
  return res.body as { idToken: string; refreshToken: string; user: { uid: string } };
}

/** Creates a token as the Account page does: with the session and the account's password. */
async function create(session: string, body: Record<string, unknown> = { name: 'nightly export', scope: 'read' }) {
  return call('POST', '/api/auth/api-tokens', { token: session, body: { password: GOOD_PASSWORD, ...body } });
}

const exchange = (token: string) => call('POST', '/internal/api-tokens/exchange', { workload: 'gateway', body: { token } });

describe('creating, listing and revoking', () => {
  it('shows the token once, stores only the hash of its secret, and lists it by name and scope', async () => {
    const s = await signedUp();
    const res = await create(s.idToken, { name: '  laptop script ', scope: 'upload' });
    expect(res.status).toBe(201);
    const created = createApiTokenResponseSchema.parse(res.body);
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created.apiToken).toMatchObject({ name: 'laptop script', scope: 'upload', lastUsedAt: null });

    const row = await id.db('api_tokens').where({ id: created.apiToken.id }).first();
    const secret = API_TOKEN_PATTERN.exec(created.token)![2]!;
    expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = listApiTokensResponseSchema.parse((await call('GET', '/api/auth/api-tokens', { token: s.idToken })).body);
    expect(list.limit).toBe(API_TOKENS_PER_USER);
    expect(list.tokens).toEqual([created.apiToken]);
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it('lists only the caller’s own tokens, and revoking one of someone else’s is a 404', async () => {
    const alice = await signedUp();
    const bob = await signedUp();
    const mine = createApiTokenResponseSchema.parse((await create(alice.idToken)).body);
    expect((await call('GET', '/api/auth/api-tokens', { token: bob.idToken })).body.tokens).toEqual([]);
    const theft = await call('DELETE', `/api/auth/api-tokens/${mine.apiToken.id}`, { token: bob.idToken });
    expect(theft.status).toBe(404);
    expect((await exchange(mine.token)).status).toBe(200);
  });

  it('revokes a token: it leaves the list, the exchange refuses it and the feed of ended sessions lists it', async () => {
    const s = await signedUp();
    const created = createApiTokenResponseSchema.parse((await create(s.idToken)).body);
    expect((await call('DELETE', `/api/auth/api-tokens/${created.apiToken.id}`, { token: s.idToken })).status).toBe(204);
    expect((await call('GET', '/api/auth/api-tokens', { token: s.idToken })).body.tokens).toEqual([]);
    const refused = await exchange(created.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'auth/api-token-invalid', message: 'This API token was revoked or does not exist.' });
    expect((await call('GET', '/internal/revocations', { workload: 'gateway' })).body.sessions).toContain(created.apiToken.id);
    // Twice is a 404, and so is an id that is not one.
    expect((await call('DELETE', `/api/auth/api-tokens/${created.apiToken.id}`, { token: s.idToken })).status).toBe(404);
    expect((await call('DELETE', '/api/auth/api-tokens/not-an-id', { token: s.idToken })).status).toBe(404);
  });

  it(`holds at most ${API_TOKENS_PER_USER} live tokens per person, and says what to do`, async () => {
    const s = await signedUp();
    const made = await Promise.all(Array.from({ length: API_TOKENS_PER_USER }, (_, i) => create(s.idToken, { name: `t${i}`, scope: 'read' })));
    expect(made.map((r) => r.status)).toEqual(Array(API_TOKENS_PER_USER).fill(201));
    const over = await create(s.idToken, { name: 'one more', scope: 'read' });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('auth/too-many-api-tokens');
    expect(over.body.error.message).toMatch(/Revoke one/);
    // A revoked one frees a place.
    await call('DELETE', `/api/auth/api-tokens/${made[0]!.body.apiToken.id}`, { token: s.idToken });
    expect((await create(s.idToken, { name: 'one more', scope: 'read' })).status).toBe(201);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const s = await signedUp();
    const noName = await create(s.idToken, { name: '   ', scope: 'read' });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/name/i);
    const badScope = await create(s.idToken, { name: 'x', scope: 'admin' });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.message).toBe('scope: scope must be read or upload');
    expect((await create(s.idToken, { name: 'x'.repeat(101), scope: 'read' })).status).toBe(400);
  });
});

describe('who may manage tokens', () => {
  it('needs a live session: no token, a logged-out session, a personal token or its exchanged access token are refused', async () => {
    const s = await signedUp();
    const created = createApiTokenResponseSchema.parse((await create(s.idToken, { name: 'ci', scope: 'upload' })).body);
    expect((await call('GET', '/api/auth/api-tokens')).status).toBe(401);

    const withToken = await create(created.token, { name: 'minted by a token', scope: 'upload' });
    expect(withToken.status).toBe(401);
    expect(withToken.body.error.code).toBe('auth/session-required');
    const exchanged = exchangeApiTokenResponseSchema.parse((await exchange(created.token)).body);
    expect((await create(exchanged.accessToken)).status).toBe(401);
    expect((await call('DELETE', `/api/auth/api-tokens/${created.apiToken.id}`, { token: exchanged.accessToken })).status).toBe(401);

    await id.post('/api/auth/logout', { refreshToken: s.refreshToken });
    expect((await call('GET', '/api/auth/api-tokens', { token: s.idToken })).status).toBe(401);
  });
});

describe('proving it is the owner', () => {
  const reauthentication = (session: string) => call('GET', '/api/auth/reauthentication', { token: session });

  it('an account with a password gives it: none is 401 saying to enter it, a wrong one 401, the right one 201', async () => {
    const s = await signedUp();
    expect((await reauthentication(s.idToken)).body).toEqual({ proof: 'password', recentSignInMinutes: 5 });
    const none = await call('POST', '/api/auth/api-tokens', { token: s.idToken, body: { name: 'no password', scope: 'read' } });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: 'auth/password-required', message: expect.stringMatching(/^Enter your password to create an API token/) });
    const wrong = await create(s.idToken, { name: 'wrong password', scope: 'read', password: 'not my password 1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'auth/invalid-credential', message: 'That is not your password. Enter the password you sign in with to create an API token.' });
    expect((await call('GET', '/api/auth/api-tokens', { token: s.idToken })).body.tokens).toEqual([]);
    expect((await create(s.idToken, { name: 'with password', scope: 'read' })).status).toBe(201);
  });

  it('wrong passwords count as failed log-ins: past the free ones the address waits, even with the right one', async () => {
    const s = await signedUp();
    const ip = freshIp();
    const attempt = (password: string) =>
      id.service.request('POST', '/api/auth/api-tokens', { token: s.idToken, body: { name: 'guess', scope: 'read', password }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < id.config.LOGIN_FREE_FAILURES; i++) expect((await attempt(`guess number ${i}`)).status).toBe(401);
    const held = await attempt(GOOD_PASSWORD);
    expect(held.status).toBe(429);
    expect(held.body.error.code).toBe('auth/too-many-requests');
  });

  it('a Google-only account needs a sign-in from the last few minutes instead, and is told to sign in again after', async () => {
    const email = uniqueEmail('google-tokens');
    const user = (await createUser(id.ctx, { email, passwordHash: null, googleSub: `google-${email}` }))!;
    const session = await completeLogin(id.ctx, user);
    expect((await reauthentication(session.idToken)).body).toEqual({ proof: 'recent-sign-in', recentSignInMinutes: 5 });
    const fresh = await call('POST', '/api/auth/api-tokens', { token: session.idToken, body: { name: 'fresh sign-in', scope: 'read' } });
    expect(fresh.status).toBe(201);

    // The same session six minutes after its sign-in.
    const { sid } = await verifyWithJwks(id, session.idToken);
    await id.db('refresh_sessions').where({ family_id: sid }).update({ created_at: new Date(Date.now() - 6 * 60_000) });
    expect((await reauthentication(session.idToken)).body).toEqual({ proof: 'sign-in-again', recentSignInMinutes: 5 });
    const stale = await call('POST', '/api/auth/api-tokens', { token: session.idToken, body: { name: 'old sign-in', scope: 'read' } });
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatchObject({
      code: 'auth/requires-recent-login',
      message: 'For your safety, creating an API token on an account that signs in with Google needs a sign-in from the last 5 minutes. Please sign in again, then create it.',
    });
  });
});

describe('the exchange (the gateway only)', () => {
  it('answers an access token for the owner with the token id as sid and its scope, and records the use', async () => {
    const s = await signedUp();
    const created = createApiTokenResponseSchema.parse((await create(s.idToken, { name: 'ci', scope: 'upload' })).body);
    const res = await exchange(created.token);
    expect(res.status).toBe(200);
    const grant = exchangeApiTokenResponseSchema.parse(res.body);
    expect(grant).toMatchObject({ tokenId: created.apiToken.id, userId: s.user.uid, scope: 'upload' });
    const claims = (await verifyWithJwks(id, grant.accessToken)) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: s.user.uid, sid: created.apiToken.id, scope: 'upload' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(grant.expiresIn);

    const used = (await call('GET', '/api/auth/api-tokens', { token: s.idToken })).body.tokens[0].lastUsedAt as string;
    expect(used).not.toBeNull();
    // At most once a minute: a second use right away leaves the time as it was.
    await exchange(created.token);
    expect((await call('GET', '/api/auth/api-tokens', { token: s.idToken })).body.tokens[0].lastUsedAt).toBe(used);
  });

  it('refuses a wrong secret, a made-up token and a caller that is not the gateway', async () => {
    const s = await signedUp();
    const created = createApiTokenResponseSchema.parse((await create(s.idToken)).body);
    const wrongSecret = created.token.slice(0, -4) + (created.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await exchange(wrongSecret)).status).toBe(401);
    expect((await exchange('ftpat_nonsense')).status).toBe(401);
    expect((await exchange(`ftpat_${'0'.repeat(32)}_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await call('POST', '/internal/api-tokens/exchange', { workload: 'upload', body: { token: created.token } })).status).toBe(401);
    expect((await call('POST', '/internal/api-tokens/exchange', { body: { token: created.token } })).status).toBe(401);
  });

  it('ends every token of a deleted account', async () => {
    const s = await signedUp();
    const created = createApiTokenResponseSchema.parse((await create(s.idToken)).body);
    expect((await id.post('/api/auth/delete-account', { refreshToken: s.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
    expect((await exchange(created.token)).status).toBe(401);
    expect((await call('GET', '/internal/revocations', { workload: 'gateway' })).body.sessions).toContain(created.apiToken.id);
  });
});
