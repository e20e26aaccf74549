import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import jwt from 'jsonwebtoken';
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { startService, createDb, type Knex } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { jwksResponseSchema, type AccessTokenClaims } from '@frametext/contracts';
import { identityConfigSchema, type IdentityConfig } from '../src/config.js';
import type { IdentityContext } from '../src/domain/context.js';
import { identityService, type RunningIdentity } from '../src/service.js';

// Tests read answer bodies field by field and let the assertions say what is wrong.
type Body = any;

export interface TestIdentity {
  url: string;
  config: IdentityConfig;
  schema: string;
  running: RunningIdentity;
  ctx: IdentityContext;
  db: Knex;
  mailbox: string;
  /** POST JSON (or a raw string body) with a client IP of the test's own, so rate limits of other tests never meet. */
  post(path: string, body: unknown, opts?: { ip?: string; raw?: string; contentType?: string }): Promise<{ status: number; body: Body; headers: Headers }>;
  get(path: string, opts?: { ip?: string }): Promise<{ status: number; body: Body; headers: Headers }>;
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
  const schema = uniqueName('identity_test');
  const dataDir = await mkdtemp(join(tmpdir(), 'identity-test-'));
  const base = testBaseConfig({ DATA_DIR: dataDir });
  const config = identityConfigSchema.parse({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), PORT: '0', ...env });
  const stops: (() => Promise<void>)[] = [];

  const boot = async () => {
    let ctx: IdentityContext | undefined;
    const running = await startService(identityService(config, { dbSchema: schema, logger: testLogger('identity'), onContext: (c) => (ctx = c) }));
    stops.push(() => running.stop());
    return { url: `http://127.0.0.1:${running.port}`, ctx: ctx!, running };
  };
  const first = await boot();
  const db = createDb(TEST_DATABASE_URL, schema, { max: 2 });
  const defaultIp = freshIp();

  const call = async (method: string, url: string, path: string, body: unknown, opts: { ip?: string; raw?: string; contentType?: string } = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': opts.ip ?? defaultIp };
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
    const res = await fetch(`${url}${path}`, { method, headers, body: payload, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as Body, headers: res.headers };
  };

  return {
    url: first.url,
    config,
    schema,
    running: first.running,
    ctx: first.ctx,
    db,
    mailbox: join(dataDir, 'mailbox'),
    post: (path, body, opts) => call('POST', first.url, path, body, opts),
    get: (path, opts) => call('GET', first.url, path, undefined, opts),
    replica: boot,
    async stop() {
      for (const stop of stops.reverse()) await stop();
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
      await deleteExchange(config.BUS_EXCHANGE);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Deletes the test's exchange, waiting out a broker restart (other suites restart RabbitMQ on purpose). */
async function deleteExchange(exchange: string): Promise<void> {
  const conn = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
  try {
    const ch = await conn.createChannel();
    // The bus declares `<exchange>.unrouted` (fanout exchange and queue) beside the topic exchange.
    await ch.deleteExchange(exchange);
    await ch.deleteQueue(`${exchange}.unrouted`);
    await ch.deleteExchange(`${exchange}.unrouted`);
  } finally {
    await conn.close();
  }
}

/** Verifies an access token the way the gateway does: by its kid against the published JWKS. */
export async function verifyWithJwks(identity: Pick<TestIdentity, 'get' | 'config'>, token: string, opts: { ignoreExpiration?: boolean } = {}): Promise<AccessTokenClaims> {
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
export { TEST_RABBITMQ_URL };
