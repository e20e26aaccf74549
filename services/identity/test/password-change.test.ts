import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessionSchema, createApiTokenResponseSchema } from '@frametext/contracts';
import type { RequestOptions } from '@frametext/service-kit/testing';
import { completeLogin, createUser } from '../src/domain/accounts.js';
import { GOOD_PASSWORD, freshIp, mailedTo, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity({ APP_URL: 'http://app.test:8080' });
});
afterAll(async () => {
  await id?.stop();
});

const NEW_PASSWORD = 'a brand new pass 9';
const call = (method: string, path: string, opts: RequestOptions = {}) =>
  id.service.request(method, path, { ...opts, headers: { 'x-forwarded-for': freshIp(), ...opts.headers } });
const change = (session: string, body: unknown) => call('POST', '/api/auth/password-change', { token: session, body });
const exchange = (token: string) => call('POST', '/internal/api-tokens/exchange', { workload: 'gateway', body: { token } });
const feed = async () => (await id.get('/internal/revocations', { workload: 'gateway' })).body.sessions as string[];

async function signedUp() {
  const email = uniqueEmail('changer');
  const res = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
  expect(res.status).toBe(201);
  return { email, ...(res.body as { idToken: string; refreshToken: string; user: { uid: string } }) };
}

describe('changing the password', () => {
  it('ends every session and API token, spends reset links, mails the owner and answers a new session for the caller', async () => {
    const me = await signedUp();
    const laptop = (await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).body as { idToken: string; refreshToken: string };
    const minted = await call('POST', '/api/auth/api-tokens', { token: me.idToken, body: { name: 'nightly', scope: 'read', password: GOOD_PASSWORD } });
    const apiToken = createApiTokenResponseSchema.parse(minted.body);
    expect((await exchange(apiToken.token)).status).toBe(200);
    await id.post('/api/auth/password-reset', { email: me.email });
    await mailedTo(id.mailbox, me.email, 'Reset your FrameText password');

    const res = await change(me.idToken, { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const next = authSessionSchema.parse(res.body);
    expect(next.user).toEqual({ uid: me.user.uid, email: me.email, firstLogin: false });

    // Every session that was, this one included, and the token: ended, and listed in the feed.
    for (const s of [me, laptop]) expect((await id.post('/api/auth/refresh', { refreshToken: s.refreshToken })).status).toBe(401);
    expect((await exchange(apiToken.token)).status).toBe(401);
    const ended = await feed();
    for (const s of [me, laptop]) expect(ended).toContain((await verifyWithJwks(id, s.idToken)).sid);
    expect(ended).toContain(apiToken.apiToken.id);
    expect(await id.db('password_reset_tokens').where({ user_id: me.user.uid }).whereNull('used_at')).toEqual([]);

    // The new session works; the new password signs in, the old one no more.
    expect((await id.post('/api/auth/refresh', { refreshToken: next.refreshToken })).status).toBe(200);
    expect((await call('GET', '/api/auth/api-tokens', { token: next.idToken })).body.tokens).toEqual([]);
    expect((await id.post('/api/auth/login', { email: me.email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).status).toBe(401);

    const notice = await mailedTo(id.mailbox, me.email, 'Your FrameText password was changed');
    expect(notice).toContain('every session of your account was signed out and every personal API token was revoked');
    expect(notice).toContain('http://app.test:8080/login');
    expect(notice).not.toContain('reset-password?token=');
  });

  it('a wrong current password is 401 and changes nothing; missing and weak ones are 400', async () => {
    const me = await signedUp();
    const wrong = await change(me.idToken, { currentPassword: 'not my password 1', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'auth/invalid-credential', message: 'That is not your current password. Please type it again.' });
    expect((await id.post('/api/auth/refresh', { refreshToken: me.refreshToken })).status).toBe(200);

    const missing = await change(me.idToken, { newPassword: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'auth/missing-password', message: 'Please fill in your current password.' });
    expect((await change(me.idToken, { currentPassword: GOOD_PASSWORD })).body.error.message).toBe('Please choose a new password.');
    const weak = await change(me.idToken, { currentPassword: GOOD_PASSWORD, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe('auth/weak-password');
    expect((await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).status).toBe(200);
  });

  it('needs a live browser session: none, a personal token or a logged-out session are 401', async () => {
    const me = await signedUp();
    const body = { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD };
    expect((await call('POST', '/api/auth/password-change', { body })).status).toBe(401);
    const { token } = createApiTokenResponseSchema.parse(
      (await call('POST', '/api/auth/api-tokens', { token: me.idToken, body: { name: 'script', scope: 'upload', password: GOOD_PASSWORD } })).body,
    );
    const byToken = await change(token, body);
    expect(byToken.status).toBe(401);
    expect(byToken.body.error).toMatchObject({ code: 'auth/session-required', message: 'API tokens cannot change the password. Sign in to FrameText in a browser to do this.' });
    await id.post('/api/auth/logout', { refreshToken: me.refreshToken });
    expect((await change(me.idToken, body)).status).toBe(401);
  });

  it('a Google-only account has no password to change: 409 saying how to set one', async () => {
    const email = uniqueEmail('google-change');
    const user = (await createUser(id.ctx, { email, passwordHash: null, googleSub: `google-${email}` }))!;
    const session = await completeLogin(id.ctx, user);
    const res = await change(session.idToken, { currentPassword: 'anything at all 1', newPassword: NEW_PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('auth/no-password');
    expect(res.body.error.message).toContain('Forgot password?');
  });
});
