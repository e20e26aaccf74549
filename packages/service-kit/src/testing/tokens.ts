import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import type { ApiTokenScope } from '@frametext/contracts';
import { BUILT_IN_SECRETS } from '../config/index.js';
import { WorkloadCredentials } from '../auth/workload.js';

export const TEST_ISSUER = 'frametext-identity';
export const TEST_AUDIENCE = 'frametext';

/**
 * identity's two faces that other services rely on, for tests of those services: a JWKS for access tokens that
 * the test signs for any user, and the feed of ended sessions, which the test edits.
 */
export interface TestIssuer {
  jwksUrl: string;
  revocationsUrl: string;
  /** Environment that points a service at this issuer. */
  env: Record<string, string>;
  /**
   * An access token for `userId` (a fresh session unless one is named), valid for `expiresIn` seconds (default 600);
   * with `scope`, one as the gateway gets for a personal API token (its sid the token's id).
   */
  tokenFor(userId: string, opts?: { sessionId?: string; expiresIn?: number; kid?: string; scope?: ApiTokenScope }): string;
  /** Ends a session: the feed lists it from now on. */
  revoke(sessionId: string): void;
  /** How many times the feed was read. */
  feedReads(): number;
  stop(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const kid = `test-${randomUUID().slice(0, 8)}`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const ended = new Set<string>();
  const workloads = new WorkloadCredentials(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET, 'identity');
  let reads = 0;

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/auth/jwks.json') return send(200, { keys: [jwk] });
    if (req.url === '/internal/revocations') {
      try {
        workloads.verify(req.headers['x-workload-token'] as string | undefined, 'identity');
      } catch {
        return send(401, { error: { code: 'auth/workload-refused', message: 'no workload token' } });
      }
      reads += 1;
      return send(200, { sessions: [...ended] });
    }
    send(404, { error: { code: 'request/not-found', message: req.url } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    jwksUrl: `${base}/api/auth/jwks.json`,
    revocationsUrl: `${base}/internal/revocations`,
    env: { IDENTITY_URL: base, JWT_ISSUER: TEST_ISSUER, JWT_AUDIENCE: TEST_AUDIENCE, REVOCATIONS_POLL_MS: '100' },
    tokenFor: (userId, opts = {}) => sign(privateKey, opts.kid ?? kid, userId, opts.sessionId ?? randomUUID(), opts.expiresIn ?? 600, opts.scope),
    revoke: (sessionId) => void ended.add(sessionId),
    feedReads: () => reads,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sign(key: KeyObject, kid: string, userId: string, sessionId: string, expiresIn: number, scope?: ApiTokenScope): string {
  const claims = { email: `${userId}@example.com`, sid: sessionId, ...(scope ? { scope } : {}) };
  return jwt.sign(claims, key, { algorithm: 'RS256', keyid: kid, subject: userId, issuer: TEST_ISSUER, audience: TEST_AUDIENCE, expiresIn });
}

/** A workload token as `caller` would send it to `audience`, with the test installation's secret. */
export function workloadTokenFor(caller: string, audience: string): Record<string, string> {
  return new WorkloadCredentials(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET, caller).headers(audience);
}
