import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import jwt from 'jsonwebtoken';

/*
 * A local OpenID provider speaking Google's protocol, for tests: identity is pointed at it (GOOGLE_ISSUER) and a test
 * plays the browser (googleSignIn), so a Google sign-in runs end to end without Google.
 */

export const CLIENT_ID = 'frametext-test-client';
export const CLIENT_SECRET = 'test-secret';

/** What the fake provider puts in the id_token for a code it hands out. */
export interface Grant {
  sub: string;
  email: string;
  emailVerified: boolean;
  nonce: string;
  challenge: string;
  audience?: string;
}

/** A tiny OpenID provider: discovery, token endpoint (checks client secret and PKCE), JWKS. */
export class FakeOidc {
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

/** identity's settings for Google sign-in against `provider`. */
export function googleEnv(provider: FakeOidc): Record<string, string> {
  return { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, GOOGLE_ISSUER: provider.issuer };
}

/** Where a browser is sent: the answer's status and Location header. */
export type Redirect = (path: string) => Promise<{ status: number; location: string | null }>;

/**
 * Plays the browser through a Google sign-in: `get` opens identity's start (directly or through the gateway), the
 * person "consents" at the provider (a grant for a code), and the callback answers the app's /login address with the
 * session (or the error) in its fragment, which this answers. `tamper.nonce` replaces the flow's nonce.
 */
export async function googleSignIn(provider: FakeOidc, get: Redirect, who: Partial<Grant> & { sub: string; email: string }, tamper: { nonce?: string } = {}) {
  const start = await get('/api/auth/google/start');
  if (start.status !== 302 || !start.location) throw new Error(`google/start answered ${start.status}`);
  const authorize = new URL(start.location);
  const p = authorize.searchParams;
  const code = randomUUID();
  provider.grants.set(code, { emailVerified: true, ...who, nonce: tamper.nonce ?? p.get('nonce')!, challenge: p.get('code_challenge')! });
  const callback = await get(`/api/auth/google/callback?code=${code}&state=${encodeURIComponent(p.get('state')!)}`);
  if (callback.status !== 302 || !callback.location) throw new Error(`google/callback answered ${callback.status}`);
  const target = new URL(callback.location);
  return { target, fragment: new URLSearchParams(target.hash.slice(1)), state: p.get('state')!, authorize };
}
