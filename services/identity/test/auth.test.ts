import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'amqplib';
import { eventually } from '@frametext/service-kit/testing';
import { authSessionSchema } from '@frametext/contracts';
import { GOOD_PASSWORD, TEST_RABBITMQ_URL, freshIp, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity();
});
afterAll(async () => {
  await id?.stop();
});

describe('sign-up', () => {
  it('creates an account, answers a session (201) with firstLogin true, and stores an argon2id hash', async () => {
    const email = uniqueEmail('signup');
    const res = await id.post('/api/auth/signup', { email: `  ${email.toUpperCase()} `, password: GOOD_PASSWORD });
    expect(res.status).toBe(201);
    const session = authSessionSchema.parse(res.body);
    expect(session.user).toMatchObject({ email, firstLogin: true });
    expect(session.expiresIn).toBe(600);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const row = await id.db('users').where({ email }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.uid).toBe(session.user.uid);
  });

  it('publishes user.created.v1 through the outbox, and it reaches the exchange', async () => {
    const conn = await connect(TEST_RABBITMQ_URL);
    const ch = await conn.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, id.config.BUS_EXCHANGE, 'user.created.v1');
    try {
      const email = uniqueEmail('event');
      const res = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
      expect(res.status).toBe(201);
      const row = await id.db('outbox').where({ type: 'user.created.v1' }).whereRaw(`envelope->'data'->>'email' = ?`, [email]).first();
      expect(row.envelope.data).toMatchObject({ uid: res.body.user.uid, email });
      const msg = await eventually(async () => (await ch.get(queue, { noAck: true })) || undefined);
      const envelope = JSON.parse(msg.content.toString());
      expect(envelope).toMatchObject({ type: 'user.created.v1', data: { uid: res.body.user.uid, email } });
      await eventually(async () => (await id.db('outbox').where({ id: row.id }).first()).published_at);
    } finally {
      await conn.close();
    }
  });

  it('refuses an address already in use (409), whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect((await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD })).status).toBe(201);
    const res = await id.post('/api/auth/signup', { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'auth/email-already-in-use', message: 'Email is already in use. Please log in or use a different email.' });
  });

  it('refuses a malformed address (400 auth/invalid-email)', async () => {
    for (const email of ['not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com']) {
      const res = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
      expect(res.status, email).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'auth/invalid-email', message: 'Invalid email format.' });
    }
  });

  it('refuses weak passwords with a message stating the rule', async () => {
    for (const password of ['short1', 'onlyletters', '1234567890']) {
      const res = await id.post('/api/auth/signup', { email: uniqueEmail('weak'), password });
      expect(res.status, password).toBe(400);
      expect(res.body.error.code).toBe('auth/weak-password');
      expect(res.body.error.message).toContain('at least 8 characters');
    }
    expect((await id.post('/api/auth/signup', { email: uniqueEmail('ok'), password: 'letters!' })).status).toBe(201);
  });
});

describe('log-in', () => {
  it('answers a session verifiable with the JWKS, with the documented claims', async () => {
    const email = uniqueEmail('login');
    const signup = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const res = await id.post('/api/auth/login', { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
    const session = authSessionSchema.parse(res.body);
    const claims = await verifyWithJwks(id, session.idToken);
    expect(claims).toMatchObject({ sub: signup.body.user.uid, email, iss: 'frametext-identity', aud: 'frametext' });
    expect(claims.exp - claims.iat).toBe(600);
  });

  it('firstLogin is true only when the account is created: signing up signs in', async () => {
    const email = uniqueEmail('first');
    expect((await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD })).body.user.firstLogin).toBe(true);
    expect((await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).body.user.firstLogin).toBe(false);
  });

  it('answers an unknown address and a wrong password alike (401 auth/invalid-credential)', async () => {
    const email = uniqueEmail('known');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const t0 = performance.now();
    const wrong = await id.post('/api/auth/login', { email, password: 'wrong password 1' });
    const t1 = performance.now();
    const unknown = await id.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'wrong password 1' });
    const t2 = performance.now();
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: { error: { correlationId?: string } }) => ({ ...b.error, correlationId: undefined });
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect(wrong.body.error).toMatchObject({ code: 'auth/invalid-credential', message: 'Invalid email or password.' });
    // Both paths run argon2: the unknown address must not answer several times faster.
    expect(t2 - t1).toBeGreaterThan((t1 - t0) / 4);
  });

  it('refuses a disabled account (403 auth/user-disabled) but only to someone who knows the password', async () => {
    const email = uniqueEmail('disabled');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    await id.db('users').where({ email }).update({ disabled: true });
    const res = await id.post('/api/auth/login', { email, password: GOOD_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'auth/user-disabled', message: 'Your account has been disabled.' });
    expect((await id.post('/api/auth/login', { email, password: 'wrong password 1' })).body.error.code).toBe('auth/invalid-credential');
  });

  it('names the missing field', async () => {
    expect((await id.post('/api/auth/login', { password: GOOD_PASSWORD })).body.error.code).toBe('auth/missing-email');
    expect((await id.post('/api/auth/login', { email: uniqueEmail(), password: '' })).body.error.code).toBe('auth/missing-password');
    const res = await id.post('/api/auth/signup', { email: uniqueEmail() });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('auth/missing-password');
  });
});

describe('bad input answers a clear 4xx JSON error', () => {
  it('malformed JSON', async () => {
    const res = await id.post('/api/auth/login', undefined, { raw: '{"email": "a@b.co", ' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('request/malformed-json');
  });

  it('wrong types', async () => {
    const res = await id.post('/api/auth/login', { email: 42, password: ['x'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('request/invalid-body');
    expect(res.body.error.message).toMatch(/^email: /);
  });

  it('a JSON array instead of an object', async () => {
    const res = await id.post('/api/auth/signup', [{ email: uniqueEmail(), password: GOOD_PASSWORD }]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('request/invalid-body');
  });

  it('a body that is not JSON', async () => {
    const res = await id.post('/api/auth/login', undefined, { raw: 'email=a@b.co&password=x', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('request/unsupported-media-type');
  });

  it('an oversize body', async () => {
    const res = await id.post('/api/auth/login', { email: uniqueEmail(), password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('request/too-large');
  });

  it('a password longer than the contract allows', async () => {
    const res = await id.post('/api/auth/login', { email: uniqueEmail(), password: 'x'.repeat(2000) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('request/invalid-body');
  });
});

describe('public endpoints', () => {
  it('providers says password on and Google off when not configured', async () => {
    expect((await id.get('/api/auth/providers')).body).toEqual({ password: true, google: false });
  });

  it('Google routes answer 404 auth/provider-disabled when Google is not configured', async () => {
    for (const path of ['/api/auth/google/start', '/api/auth/google/callback?code=x&state=y']) {
      const res = await id.get(path, { ip: freshIp() });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('auth/provider-disabled');
    }
  });

  it('the JWKS publishes RS256 signing keys with kid and use', async () => {
    const res = await id.get('/api/auth/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    expect(res.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), e: 'AQAB' });
  });
});
