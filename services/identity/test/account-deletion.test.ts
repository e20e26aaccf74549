import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'amqplib';
import { eventually } from '@frametext/service-kit/testing';
import { deleteAccountProofResponseSchema, userDeletedV1 } from '@frametext/contracts';
import { completeLogin, createUser } from '../src/domain/accounts.js';
import { runMaintenance } from '../src/domain/maintenance.js';
import { GOOD_PASSWORD, TEST_RABBITMQ_URL, freshIp, startIdentity, uniqueEmail, verifyWithJwks, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  // One free failure, then 1 s, 2 s, 4 s...: a few wrong passwords are enough to see the wait.
  id = await startIdentity({ LOGIN_FREE_FAILURES: '1' });
});
afterAll(async () => {
  await id?.stop();
});

interface Signed {
  email: string;
  uid: string;
  idToken: string;
  refreshToken: string;
}

async function signedUp(ip = freshIp()): Promise<Signed> {
  const email = uniqueEmail('leaving');
  const res = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD }, { ip });
  expect(res.status).toBe(201);
  return { email, uid: res.body.user.uid, idToken: res.body.idToken, refreshToken: res.body.refreshToken };
}

/** A Google-only account (no password) and a session started now, as the Google callback makes them. */
async function googleOnly(): Promise<Signed> {
  const email = uniqueEmail('google');
  const user = (await createUser(id.ctx, { email, passwordHash: null, googleSub: `google-${email}` }))!;
  const session = await completeLogin(id.ctx, user);
  return { email, uid: user.uid, idToken: session.idToken, refreshToken: session.refreshToken };
}

const deleteAccount = (body: Record<string, unknown>, ip?: string) => id.post('/api/auth/delete-account', body, { ip });
const proof = (refreshToken: string) => id.post('/api/auth/delete-account/proof', { refreshToken });
const feed = async () => (await id.get('/internal/revocations', { workload: 'gateway' })).body.sessions as string[];
const deletedEvents = (uid: string) => id.db('outbox').where({ type: 'user.deleted.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [uid]);

/** Every row of every identity table, as text: where a person's data could hide. */
async function everyRowAsText(): Promise<string> {
  const tables = (await id.db.raw<{ rows: { table_name: string }[] }>(`select table_name from information_schema.tables where table_schema = current_schema()`)).rows;
  const dumps = await Promise.all(tables.map(async ({ table_name }) => (await id.db.raw<{ rows: { row: string }[] }>(`select t::text as row from ?? t`, [table_name])).rows.map((r) => r.row)));
  return dumps.flat().join('\n');
}

describe('deleting an account with a password', () => {
  it('needs the password: 204, then every session is refused, listed in the feed, and the account signs in no more', async () => {
    const me = await signedUp();
    const laptop = (await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).body as Signed;
    const someoneElse = await signedUp();
    const sids = await Promise.all([me, laptop, someoneElse].map(async (s) => (await verifyWithJwks(id, s.idToken)).sid!));

    expect(deleteAccountProofResponseSchema.parse((await proof(me.refreshToken)).body)).toEqual({ proof: 'password', recentSignInMinutes: 5 });
    const res = await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD });
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('no-store');

    // Both of the person's sessions (this device and the laptop) end; the other person's does not.
    const ended = await feed();
    expect(ended).toEqual(expect.arrayContaining([sids[0], sids[1]]));
    expect(ended).not.toContain(sids[2]);
    for (const token of [me.refreshToken, laptop.refreshToken]) {
      expect((await id.post('/api/auth/refresh', { refreshToken: token })).body.error.code).toBe('auth/invalid-refresh-token');
    }
    expect((await id.post('/api/auth/refresh', { refreshToken: someoneElse.refreshToken })).status).toBe(200);
    const login = await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD });
    expect(login.status).toBe(401);
    expect(login.body.error.code).toBe('auth/invalid-credential');
  });

  it('erases the person from identity: no table holds the e-mail, the password hash or the sign-in addresses', async () => {
    const ip = freshIp();
    const me = await signedUp(ip);
    // Things identity keeps about a person: a failed log-in, a reset link and its e-mail, the addresses used.
    await id.post('/api/auth/login', { email: me.email, password: 'not my password 1' }, { ip: freshIp() });
    expect((await id.post('/api/auth/password-reset', { email: me.email })).status).toBe(204);
    const hash = (await id.db('users').where({ uid: me.uid }).first()).password_hash as string;
    expect(await everyRowAsText()).toContain(me.email);

    expect((await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD }, ip)).status).toBe(204);
    const everything = await everyRowAsText();
    expect(everything).not.toContain(me.email);
    expect(everything).not.toContain(hash);
    expect(await id.db('known_login_addresses').where({ user_id: me.uid })).toEqual([]);
    // The reset link sent before can no longer set a password on it.
    expect(await id.db('password_reset_tokens').where({ user_id: me.uid })).toEqual([]);
    // What is left is an anonymous row for the feed, until the maintenance job removes it.
    expect(await id.db('users').where({ uid: me.uid }).first()).toMatchObject({ email: null, password_hash: null, google_sub: null, last_login_at: null });
  });

  it('lets the same e-mail sign up again at once, as a new account', async () => {
    const me = await signedUp();
    expect((await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
    const again = await id.post('/api/auth/signup', { email: me.email, password: 'another pass 7' });
    expect(again.status).toBe(201);
    expect(again.body.user).toMatchObject({ email: me.email, firstLogin: true });
    expect(again.body.user.uid).not.toBe(me.uid);
    expect((await id.post('/api/auth/login', { email: me.email, password: 'another pass 7' })).status).toBe(200);
    expect((await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).status).toBe(401);
  });

  it('publishes user.deleted.v1 { uid, deletedAt } once through the outbox, and it reaches the exchange; a replay deletes nothing more', async () => {
    const conn = await connect(TEST_RABBITMQ_URL);
    const ch = await conn.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, id.config.BUS_EXCHANGE, 'user.deleted.v1');
    try {
      const me = await signedUp();
      const before = Date.now();
      expect((await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
      const msg = await eventually(async () => (await ch.get(queue, { noAck: true })) || undefined);
      const envelope = JSON.parse(msg.content.toString());
      expect(envelope.type).toBe('user.deleted.v1');
      const data = userDeletedV1.parse(envelope.data);
      expect(data.uid).toBe(me.uid);
      expect(Date.parse(data.deletedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(JSON.stringify(envelope)).not.toContain(me.email);

      // The same request again (a double click, a retried request): the session is gone, nothing happens twice.
      const replay = await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD });
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe('auth/invalid-refresh-token');
      expect(await deletedEvents(me.uid)).toHaveLength(1);
      // The person's user.created.v1 (it carried the e-mail) is no longer kept either.
      expect(await id.db('outbox').where({ type: 'user.created.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [me.uid])).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('a wrong password answers as a wrong log-in does, deletes nothing, and counts as a failed log-in', async () => {
    const me = await signedUp();
    const ip = freshIp();
    const wrong = await deleteAccount({ refreshToken: me.refreshToken, password: 'not my password' }, ip);
    const wrongLogin = await id.post('/api/auth/login', { email: me.email, password: 'not my password' }, { ip: freshIp() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'auth/invalid-credential', message: 'Invalid email or password.' });
    expect(wrong.body.error.message).toBe(wrongLogin.body.error.message);
    expect((await id.post('/api/auth/refresh', { refreshToken: me.refreshToken })).status).toBe(200);
    expect(await deletedEvents(me.uid)).toEqual([]);

    // Two more: this address now waits (4 s) before it may try again, on log-in and here, even with the right password.
    await deleteAccount({ refreshToken: me.refreshToken, password: 'not my password 2' }, ip);
    await deleteAccount({ refreshToken: me.refreshToken, password: 'not my password 3' }, ip);
    const waiting = await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD }, { ip });
    expect(waiting.status).toBe(429);
    expect(waiting.body.error.code).toBe('auth/too-many-requests');
    const stillWaiting = await deleteAccount({ refreshToken: (await id.post('/api/auth/login', { email: me.email, password: GOOD_PASSWORD })).body.refreshToken, password: GOOD_PASSWORD }, ip);
    expect(stillWaiting.status).toBe(429);
    expect(await deletedEvents(me.uid)).toEqual([]);
  });

  it('asks for the password when it is missing (400 auth/missing-password)', async () => {
    const me = await signedUp();
    for (const body of [{ refreshToken: me.refreshToken }, { refreshToken: me.refreshToken, password: '' }]) {
      const res = await deleteAccount(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('auth/missing-password');
    }
    expect(await deletedEvents(me.uid)).toEqual([]);
  });
});

describe('deleting a Google-only account', () => {
  it('needs no password from a session started within the last few minutes', async () => {
    const me = await googleOnly();
    expect((await proof(me.refreshToken)).body).toEqual({ proof: 'recent-sign-in', recentSignInMinutes: 5 });
    expect((await deleteAccount({ refreshToken: me.refreshToken })).status).toBe(204);
    expect(await feed()).toContain((await verifyWithJwks(id, me.idToken)).sid);
    expect(await id.db('users').where({ uid: me.uid }).first()).toMatchObject({ email: null, google_sub: null });
    // The Google account can sign up here again: nothing links it to the deleted one.
    expect(await createUser(id.ctx, { email: me.email, passwordHash: null, googleSub: `google-${me.email}` })).toMatchObject({ email: me.email });
  });

  it('asks to sign in again from an older session, and deletes nothing', async () => {
    const me = await googleOnly();
    const { sid } = await verifyWithJwks(id, me.idToken);
    await id.db('refresh_sessions').where({ family_id: sid }).update({ created_at: new Date(Date.now() - 6 * 60_000) });
    expect((await proof(me.refreshToken)).body).toEqual({ proof: 'sign-in-again', recentSignInMinutes: 5 });
    // A password does not stand in for the recent sign-in: the account has none.
    const res = await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('auth/requires-recent-login');
    expect(res.body.error.message).toMatch(/sign-in from the last 5 minutes\. Please sign in again/);
    expect(await deletedEvents(me.uid)).toEqual([]);
    expect((await id.post('/api/auth/refresh', { refreshToken: me.refreshToken })).status).toBe(200);
  });
});

describe('the session proof', () => {
  it('refuses unknown, logged-out and missing refresh tokens like log-out and refresh name them', async () => {
    const me = await signedUp();
    await id.post('/api/auth/logout', { refreshToken: me.refreshToken });
    for (const refreshToken of ['not-a-real-token', me.refreshToken]) {
      for (const res of [await deleteAccount({ refreshToken, password: GOOD_PASSWORD }), await proof(refreshToken)]) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('auth/invalid-refresh-token');
      }
    }
    expect((await deleteAccount({ password: GOOD_PASSWORD })).body.error.code).toBe('auth/missing-refresh-token');
    expect((await deleteAccount({ refreshToken: me.refreshToken, password: 12 })).body.error.code).toBe('request/invalid-body');
  });

  it('treats a spent refresh token as stolen: refused, and its whole chain ends', async () => {
    const me = await signedUp();
    const next = (await id.post('/api/auth/refresh', { refreshToken: me.refreshToken })).body.refreshToken as string;
    const res = await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('auth/invalid-refresh-token');
    expect((await id.post('/api/auth/refresh', { refreshToken: next })).status).toBe(401);
    expect(await deletedEvents(me.uid)).toEqual([]);
  });

  it('a disabled account is refused (403), as its refresh is', async () => {
    const me = await signedUp();
    await id.db('users').where({ uid: me.uid }).update({ disabled: true });
    const res = await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth/user-disabled');
  });
});

describe('a sign-in racing the deletion', () => {
  it('gets no session once the account is gone, even if it checked the password before', async () => {
    const me = await signedUp();
    // The log-in read the account and checked the password; the deletion commits before it starts the session.
    const readBefore = (await id.db('users').where({ uid: me.uid }).first()) as { uid: string; email: string };
    expect((await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
    const user = { uid: readBefore.uid, email: readBefore.email, passwordHash: null, disabled: false, createdAt: new Date(), lastLoginAt: null, googleSub: null };
    await expect(completeLogin(id.ctx, user)).rejects.toMatchObject({ code: 'auth/invalid-credential' });
    expect(await id.db('refresh_sessions').where({ user_id: me.uid }).whereNull('revoked_at')).toEqual([]);
  });
});

describe('after the feed no longer needs it', () => {
  it('the maintenance job removes the tombstone and its sessions', async () => {
    const me = await signedUp();
    const { sid } = await verifyWithJwks(id, me.idToken);
    expect((await deleteAccount({ refreshToken: me.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
    await runMaintenance(id.ctx);
    expect(await id.db('users').where({ uid: me.uid }).first()).toBeDefined();
    expect(await feed()).toContain(sid);

    // As if the access-token lifetime and the margin had passed.
    const past = new Date(Date.now() - (600 + 6 * 60) * 1000);
    await id.db('users').where({ uid: me.uid }).update({ deleted_at: past });
    await id.db('refresh_sessions').where({ user_id: me.uid }).update({ revoked_at: past });
    await runMaintenance(id.ctx);
    expect(await id.db('users').where({ uid: me.uid }).first()).toBeUndefined();
    expect(await id.db('refresh_sessions').where({ user_id: me.uid })).toEqual([]);
    expect(await feed()).not.toContain(sid);
  });
});
