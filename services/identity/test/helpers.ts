import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { TEST_RABBITMQ_URL, eventually, startTestService, uniqueName, type Answer, type RequestOptions, type ServiceUnderTest } from '@frametext/service-kit/testing';
import { jwksResponseSchema, type AccessTokenClaims } from '@frametext/contracts';
import { identityConfigSchema, type IdentityConfig } from '../src/config.js';
import type { IdentityContext } from '../src/domain/context.js';
import { identityService, type RunningIdentity } from '../src/service.js';

export interface TestIdentity {
  service: ServiceUnderTest<IdentityConfig>;
  url: string;
  config: IdentityConfig;
  running: RunningIdentity;
  ctx: IdentityContext;
  db: ServiceUnderTest<IdentityConfig>['db'];
  mailbox: string;
  /** POST JSON (or a raw string body) with a client IP of the test's own, so rate limits of other tests never meet. */
  post(path: string, body: unknown, opts?: { ip?: string; raw?: string; contentType?: string }): Promise<Answer>;
  get(path: string, opts?: { ip?: string } & Pick<RequestOptions, 'workload'>): Promise<Answer>;
  /** Starts another replica on the same schema and exchange. */
  replica(): Promise<{ url: string; ctx: IdentityContext; running: RunningIdentity }>;
  stop(): Promise<void>;
}

let ipCounter = 0;
/** A fresh client address for a test (X-Forwarded-For, trusted from loopback). */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${ipCounter % 250}`;
}

export async function startIdentity(env: Record<string, string> = {}): Promise<TestIdentity> {
  let latest: IdentityContext | undefined;
  const service = await startTestService({
    role: 'identity',
    configSchema: identityConfigSchema,
    env,
    define: (config, t) => identityService(config, { dbSchema: t.schema, logger: t.logger, onContext: (c) => (latest = c) }),
  });
  const first = latest!;
  const defaultIp = freshIp();
  const call = (method: string, path: string, opts: RequestOptions & { ip?: string }) =>
    service.request(method, path, { ...opts, headers: { 'x-forwarded-for': opts.ip ?? defaultIp, ...opts.headers }, redirect: 'manual' });

  return {
    service,
    url: service.url,
    config: service.config,
    running: service.running,
    ctx: first,
    db: service.db,
    mailbox: join(service.dataDir, 'mailbox'),
    post: (path, body, opts = {}) =>
      call('POST', path, opts.raw === undefined ? { ip: opts.ip, body } : { ip: opts.ip, raw: opts.raw, contentType: opts.contentType }),
    get: (path, opts = {}) => call('GET', path, opts),
    async replica() {
      const running = await service.replica();
      return { url: `http://127.0.0.1:${running.port}`, ctx: latest!, running };
    },
    stop: () => service.stop(),
  };
}

/** Verifies an access token the way the gateway does: by its kid against the published JWKS (at `clockTimestamp`, seconds, when given). */
export async function verifyWithJwks(identity: Pick<TestIdentity, 'get' | 'config'>, token: string, opts: { ignoreExpiration?: boolean; clockTimestamp?: number } = {}): Promise<AccessTokenClaims> {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded) throw new Error('not a JWT');
  const jwks = jwksResponseSchema.parse((await identity.get('/api/auth/jwks.json')).body);
  const jwk = jwks.keys.find((k) => k.kid === decoded.header.kid);
  if (!jwk) throw new Error(`kid ${decoded.header.kid} is not in the JWKS`);
  const key = createPublicKey({ key: jwk as unknown as JsonWebKey, format: 'jwk' });
  return jwt.verify(token, key, { algorithms: ['RS256'], issuer: identity.config.JWT_ISSUER, audience: identity.config.JWT_AUDIENCE, ...opts }) as AccessTokenClaims;
}

export const uniqueEmail = (prefix = 'user') => `${prefix}.${uniqueName('x')}@example.com`.toLowerCase();
export const GOOD_PASSWORD = 'correct horse 42';
export { TEST_RABBITMQ_URL, uniqueName };

/**
 * The text of the newest mail to `email` whose subject is `subject`, as written to the mailbox folder (waits for it),
 * with quoted-printable line breaks and escapes undone.
 */
export async function mailedTo(mailbox: string, email: string, subject: string): Promise<string> {
  return eventually(async () => {
    const files = (await readdir(mailbox).catch(() => [] as string[])).sort().reverse();
    for (const f of files) {
      const text = (await readFile(join(mailbox, f), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (text.includes(`To: ${email}`) && text.includes(`Subject: ${subject}`)) return text;
    }
    return undefined;
  });
}
