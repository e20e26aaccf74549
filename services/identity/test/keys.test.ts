import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { parseConfig, startService } from '@frametext/service-kit';
import { eventually, testEnv } from '@frametext/service-kit/testing';
import { identityConfigSchema } from '../src/config.js';
import { rotateSigningKey } from '../src/domain/maintenance.js';
import { identityService } from '../src/service.js';
import { GOOD_PASSWORD, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity();
});
afterAll(async () => {
  await id?.stop();
});

const kidOf = (token: string) => jwt.decode(token, { complete: true })!.header.kid!;

describe('signing keys', () => {
  it('rotation keeps tokens signed by the previous key verifiable through the JWKS', async () => {
    const email = uniqueEmail('rotate');
    const before = (await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD })).body;
    const newKid = await rotateSigningKey(id.ctx);
    expect(newKid).not.toBe(kidOf(before.idToken));
    const after = (await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).body;
    expect(kidOf(after.idToken)).toBe(newKid);
    const kids = (await id.get('/api/auth/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([newKid, kidOf(before.idToken)]));
    expect((await verifyWithJwks(id, before.idToken)).email).toBe(email);
    expect((await verifyWithJwks(id, after.idToken)).email).toBe(email);
    // The old session's refresh token still works: rotation signs nobody out.
    expect((await id.post('/api/auth/refresh', { refreshToken: before.refreshToken })).status).toBe(200);
  });

  it('a retired key leaves the JWKS once every token it signed has expired', async () => {
    const oldKid = (await id.db('signing_keys').whereNull('retired_at').first()).kid;
    await rotateSigningKey(id.ctx);
    await id.db('signing_keys').where({ kid: oldKid }).update({ retired_at: new Date(Date.now() - (600 + 6 * 60) * 1000) });
    const kids = (await id.get('/api/auth/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(kids).not.toContain(oldKid);
  });

  it('a replica rotates the key once it is older than JWT_KEY_ROTATION_DAYS, and not before', async () => {
    const active = (await id.db('signing_keys').whereNull('retired_at').first()).kid;
    expect(await id.ctx.keys.ensureFresh()).toBeUndefined();
    await id.db('signing_keys').where({ kid: active }).update({ created_at: new Date(Date.now() - 31 * 86_400_000) });
    const fresh = await id.ctx.keys.ensureFresh();
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(active);
  });

  it('two replicas racing to create the first key make exactly one', async () => {
    const replica = await id.replica();
    await id.db('signing_keys').delete();
    const created = await Promise.all([id.ctx.keys.ensureFresh(), replica.ctx.keys.ensureFresh(), id.ctx.keys.ensureFresh(), replica.ctx.keys.ensureFresh()]);
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await id.db('signing_keys').count({ n: '*' }).first()).toEqual({ n: 1 });
  });
});

describe('access token lifetime and encrypted keys', () => {
  let short: TestIdentity;
  beforeAll(async () => {
    short = await startIdentity({ ACCESS_TOKEN_TTL_SECONDS: '1', JWT_KEY_PASSPHRASE: 'a passphrase of some length' });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it('stores private keys encrypted when a passphrase is set', async () => {
    const row = await short.db('signing_keys').first();
    expect(row.encrypted).toBe(true);
    expect(row.private_pem).toContain('BEGIN ENCRYPTED PRIVATE KEY');
  });

  it('an access token stops verifying after its lifetime', async () => {
    const res = await short.post('/api/auth/signup', { email: uniqueEmail('short'), password: GOOD_PASSWORD });
    expect(res.body.expiresIn).toBe(1);
    // Valid when issued: checked at its own iat, since a 1-second token issued late in a second expires at the next
    // one, which a busy machine can reach before this line runs.
    const { iat } = jwt.decode(res.body.idToken) as { iat: number };
    const claims = await verifyWithJwks(short, res.body.idToken, { clockTimestamp: iat });
    expect(claims.exp - claims.iat).toBe(1);
    // Once the clock reaches its exp (whole seconds, as verification reads it), it is refused.
    await eventually(() => Math.floor(Date.now() / 1000) >= claims.exp, 5_000, 20, 'the clock at the token expiry');
    await expect(verifyWithJwks(short, res.body.idToken)).rejects.toThrow(/jwt expired/);
  });
});

describe('signing keys at rest', () => {
  it('encrypts the keys an earlier run stored in clear once a passphrase is set, and tokens they signed keep working', async () => {
    const email = uniqueEmail('at-rest');
    const before = (await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD })).body;
    expect((await id.db('signing_keys').where({ encrypted: false })).length).toBeGreaterThan(0);

    const sealed = await startService(identityService({ ...id.config, JWT_KEY_PASSPHRASE: 'a passphrase of our own 42' }, { dbSchema: id.service.names.schema }));
    try {
      const rows = await id.db('signing_keys').select('encrypted', 'private_pem');
      expect(rows.every((r: { encrypted: boolean; private_pem: string }) => r.encrypted && r.private_pem.includes('ENCRYPTED PRIVATE KEY'))).toBe(true);
      expect((await verifyWithJwks(id, before.idToken)).email).toBe(email);
      const login = await fetch(`http://127.0.0.1:${sealed.port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.250.0.1' },
        body: JSON.stringify({ email, password: GOOD_PASSWORD }),
      });
      expect(login.status).toBe(200);
      expect((await verifyWithJwks(id, ((await login.json()) as { idToken: string }).idToken)).email).toBe(email);
    } finally {
      await sealed.stop();
    }
  });

  it('refuses to start in production without a passphrase, naming the setting', () => {
    const secrets = { STORAGE_SIGNING_SECRET: 's'.repeat(40), SERVICE_TOKEN_SECRET: 't'.repeat(40) };
    expect(() => parseConfig(identityConfigSchema, testEnv({ NODE_ENV: 'production', ...secrets }))).toThrow(/^invalid setting JWT_KEY_PASSPHRASE: is required in production/);
    expect(() => parseConfig(identityConfigSchema, testEnv({ NODE_ENV: 'production', ...secrets, JWT_KEY_PASSPHRASE: 'p'.repeat(20) }))).not.toThrow();
  });
});

