import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { rotateSigningKey } from '../src/domain/maintenance.js';
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
    await id.db('signing_keys').where({ kid: oldKid }).update({ retired_at: new Date(Date.now() - (3600 + 6 * 60) * 1000) });
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
    const claims = await verifyWithJwks(short, res.body.idToken);
    expect(claims.exp - claims.iat).toBe(1);
    await new Promise((r) => setTimeout(r, 2100));
    await expect(verifyWithJwks(short, res.body.idToken)).rejects.toThrow(/jwt expired/);
  });
});
