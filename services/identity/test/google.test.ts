import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTokenResponseSchema } from '@frametext/contracts';
import { GOOD_PASSWORD, mailedTo, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';
import { CLIENT_ID, FakeOidc, googleEnv, googleSignIn, type Grant } from './support/fake-oidc.js';

const provider = new FakeOidc();
let id: TestIdentity;
beforeAll(async () => {
  await provider.start();
  id = await startIdentity({ ...googleEnv(provider), APP_URL: 'http://app.test:8080' });
});
afterAll(async () => {
  await id?.stop();
  await provider.stop();
});

/** Runs the browser's part: start, "consent" at the provider (a grant for a code), then the callback. Answers the fragment of the final redirect. */
async function signInWithGoogle(who: Partial<Grant> & { sub: string; email: string }, tamper: { nonce?: string } = {}) {
  const get = async (path: string) => {
    const res = await id.get(path);
    return { status: res.status, location: res.headers.get('location') };
  };
  const answer = await googleSignIn(provider, get, who, tamper);
  expect(`${answer.target.origin}${answer.target.pathname}`).toBe('http://app.test:8080/login');
  return answer;
}

describe('Google sign-in (OpenID Connect, code + PKCE)', () => {
  it('providers says Google is on', async () => {
    expect((await id.get('/api/auth/providers')).body).toEqual({ password: true, google: true });
  });

  it('start redirects to the provider with state, nonce and an S256 challenge', async () => {
    const start = await id.get('/api/auth/google/start');
    const url = new URL(start.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'http://app.test:8080/api/auth/google/callback',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const k of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(k)!.length).toBeGreaterThan(40);
    // The verifier stays server-side: it is not in the redirect.
    expect(await id.db('oidc_flows').count({ n: '*' }).first()).toMatchObject({ n: expect.any(Number) });
  });

  it('creates a new user (publishing user.created.v1) and hands the SPA a session in the fragment', async () => {
    const email = uniqueEmail('google');
    const { fragment } = await signInWithGoogle({ sub: `g-${randomUUID()}`, email });
    expect(fragment.get('error')).toBeNull();
    expect(fragment.get('firstLogin')).toBe('true');
    expect(fragment.get('expiresIn')).toBe('600');
    const claims = await verifyWithJwks(id, fragment.get('idToken')!);
    expect(claims.email).toBe(email);
    const user = await id.db('users').where({ email }).first();
    expect(user.password_hash).toBeNull();
    const events = await id.db('outbox').where({ type: 'user.created.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [user.uid]);
    expect(events).toHaveLength(1);
    // Google verified the address: confirmed at once (the free credits follow), and no confirmation mail is sent.
    expect(user.email_confirmed_at).toBeInstanceOf(Date);
    expect(await id.db('outbox').where({ type: 'user.email-confirmed.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [user.uid])).toHaveLength(1);
    expect(await id.db('email_confirmation_tokens').where({ user_id: user.uid })).toEqual([]);
    expect((await id.post('/api/auth/refresh', { refreshToken: fragment.get('refreshToken') })).status).toBe(200);
  });

  it('a returning Google user gets the same account, firstLogin false, and no second event', async () => {
    const email = uniqueEmail('again');
    const sub = `g-${randomUUID()}`;
    const first = await signInWithGoogle({ sub, email });
    const second = await signInWithGoogle({ sub, email });
    expect(second.fragment.get('firstLogin')).toBe('false');
    const uid = (await verifyWithJwks(id, first.fragment.get('idToken')!)).sub;
    expect((await verifyWithJwks(id, second.fragment.get('idToken')!)).sub).toBe(uid);
    expect(await id.db('outbox').where({ type: 'user.created.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [uid])).toHaveLength(1);
    expect(await id.db('outbox').where({ type: 'user.email-confirmed.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [uid])).toHaveLength(1);
  });

  it('links a verified Google address to an existing account, dropping the unproven password and every session and API token', async () => {
    const email = uniqueEmail('link');
    const signup = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const minted = await id.service.request('POST', '/api/auth/api-tokens', { token: signup.body.idToken, body: { name: 'before the link', scope: 'read', password: GOOD_PASSWORD } });
    const apiToken = createApiTokenResponseSchema.parse(minted.body);
    const { fragment } = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: email.toUpperCase() });
    expect((await verifyWithJwks(id, fragment.get('idToken')!)).sub).toBe(signup.body.user.uid);
    expect((await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(401);
    expect((await id.post('/api/auth/refresh', { refreshToken: signup.body.refreshToken })).status).toBe(401);
    expect((await id.service.request('POST', '/internal/api-tokens/exchange', { workload: 'gateway', body: { token: apiToken.token } })).status).toBe(401);
    expect((await id.get('/internal/revocations', { workload: 'gateway' })).body.sessions).toContain(apiToken.apiToken.id);
    const notice = await mailedTo(id.mailbox, email, 'Your FrameText account now signs in with Google');
    expect(notice).toContain('every personal API token was revoked');
    // Google proved the address the account never confirmed: confirmed now, once.
    expect(await id.db('outbox').where({ type: 'user.email-confirmed.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [signup.body.user.uid])).toHaveLength(1);
  });

  it('refuses an unverified e-mail, a wrong nonce and a wrong audience', async () => {
    const unverified = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: uniqueEmail('unverified'), emailVerified: false });
    expect(unverified.fragment.get('error')).toBe('auth/email-not-verified');
    expect(unverified.fragment.get('idToken')).toBeNull();
    const nonce = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: uniqueEmail('nonce') }, { nonce: 'replayed' });
    expect(nonce.fragment.get('error')).toBe('auth/oauth-failed');
    const aud = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: uniqueEmail('aud'), audience: 'someone-else' });
    expect(aud.fragment.get('error')).toBe('auth/oauth-failed');
  });

  it('a state can be redeemed once, and an unknown state is refused', async () => {
    const { state } = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: uniqueEmail('once') });
    for (const s of [state, 'made-up-state']) {
      const res = await id.get(`/api/auth/google/callback?code=whatever&state=${s}`);
      const fragment = new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1));
      expect(fragment.get('error')).toBe('auth/invalid-oauth-state');
    }
  });

  it('a disabled account cannot sign in with Google', async () => {
    const email = uniqueEmail('gdisabled');
    const sub = `g-${randomUUID()}`;
    await signInWithGoogle({ sub, email });
    await id.db('users').where({ email }).update({ disabled: true });
    expect((await signInWithGoogle({ sub, email })).fragment.get('error')).toBe('auth/user-disabled');
  });
});
