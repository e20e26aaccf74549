import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { GOOD_PASSWORD, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

const CLIENT_ID = 'frametext-test-client';
const CLIENT_SECRET = 'test-secret';

/** What the fake provider puts in the id_token for a code it hands out. */
interface Grant {
  sub: string;
  email: string;
  emailVerified: boolean;
  nonce: string;
  challenge: string;
  audience?: string;
}

/** A tiny OpenID provider: discovery, token endpoint (checks client secret and PKCE), JWKS. */
class FakeOidc {
  server!: Server;
  issuer = '';
  readonly grants = new Map<string, Grant>();
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.issuer);
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(200, { issuer: this.issuer, authorization_endpoint: `${this.issuer}/authorize`, token_endpoint: `${this.issuer}/token`, jwks_uri: `${this.issuer}/jwks` });
      }
      if (url.pathname === '/jwks') return json(200, { keys: [{ ...this.keys.publicKey.export({ format: 'jwk' }), kid: 'fake-1', use: 'sig', alg: 'RS256' }] });
      if (url.pathname === '/token' && req.method === 'POST') {
        let raw = '';
        req.on('data', (c: Buffer) => (raw += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(raw);
          const grant = this.grants.get(form.get('code') ?? '');
          if (!grant || form.get('client_secret') !== CLIENT_SECRET || form.get('client_id') !== CLIENT_ID) return json(400, { error: 'invalid_grant' });
          const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
          if (challenge !== grant.challenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          this.grants.delete(form.get('code')!);
          const idToken = jwt.sign({ email: grant.email, email_verified: grant.emailVerified, nonce: grant.nonce }, this.keys.privateKey, {
            algorithm: 'RS256',
            keyid: 'fake-1',
            issuer: this.issuer,
            audience: grant.audience ?? CLIENT_ID,
            subject: grant.sub,
            expiresIn: 300,
          });
          json(200, { access_token: 'x', token_type: 'Bearer', id_token: idToken });
        });
        return;
      }
      json(404, { error: 'not found' });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const addr = this.server.address();
    this.issuer = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const provider = new FakeOidc();
let id: TestIdentity;
beforeAll(async () => {
  await provider.start();
  id = await startIdentity({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, GOOGLE_ISSUER: provider.issuer, APP_URL: 'http://app.test:8080' });
});
afterAll(async () => {
  await id?.stop();
  await provider.stop();
});

/** Runs the browser's part: start, "consent" at the provider (a grant for a code), then the callback. Answers the fragment of the final redirect. */
async function signInWithGoogle(who: Partial<Grant> & { sub: string; email: string }, tamper: { nonce?: string } = {}) {
  const start = await id.get('/api/auth/google/start');
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  const p = authorize.searchParams;
  const code = randomUUID();
  provider.grants.set(code, { emailVerified: true, ...who, nonce: tamper.nonce ?? p.get('nonce')!, challenge: p.get('code_challenge')! });
  const callback = await id.get(`/api/auth/google/callback?code=${code}&state=${encodeURIComponent(p.get('state')!)}`);
  expect(callback.status).toBe(302);
  const target = new URL(callback.headers.get('location')!);
  expect(`${target.origin}${target.pathname}`).toBe('http://app.test:8080/login');
  return { fragment: new URLSearchParams(target.hash.slice(1)), state: p.get('state')!, authorize };
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
  });

  it('links a verified Google address to an existing account, dropping the unproven password', async () => {
    const email = uniqueEmail('link');
    const signup = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const { fragment } = await signInWithGoogle({ sub: `g-${randomUUID()}`, email: email.toUpperCase() });
    expect((await verifyWithJwks(id, fragment.get('idToken')!)).sub).toBe(signup.body.user.uid);
    expect((await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(401);
    expect((await id.post('/api/auth/refresh', { refreshToken: signup.body.refreshToken })).status).toBe(401);
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
