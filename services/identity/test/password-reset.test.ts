import { readdir, readFile, stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@frametext/service-kit';
import { eventually, startTestService } from '@frametext/service-kit/testing';
import { identityConfigSchema } from '../src/config.js';
import { identityService } from '../src/service.js';
import { smtpMailer } from '../src/data/mailer.js';
import { deliverQueuedMail, retryDelayMs } from '../src/domain/mail-delivery.js';
import { GOOD_PASSWORD, mailedTo, startIdentity, uniqueEmail, type TestIdentity } from './helpers.js';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity({ APP_URL: 'http://app.test:8080' });
});
afterAll(async () => {
  await id?.stop();
});

/** The reset token from the newest .eml addressed to `email` in the mailbox folder. */
async function linkFromMailbox(email: string): Promise<{ link: string; token: string }> {
  return eventually(async () => {
    const files = (await readdir(id.mailbox).catch(() => [])).sort().reverse();
    for (const f of files) {
      const text = await readFile(join(id.mailbox, f), 'utf8');
      if (!text.includes(`To: ${email}`)) continue;
      const unfolded = text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const m = /(http:\/\/app\.test:8080\/reset-password\?token=[A-Za-z0-9_%-]+)/.exec(unfolded);
      if (m) return { link: m[1]!, token: decodeURIComponent(new URL(m[1]!).searchParams.get('token')!) };
    }
    return undefined;
  });
}

describe('password reset', () => {
  it('end to end: the e-mailed link sets a new password; the old one stops working; sessions and API tokens end', async () => {
    const email = uniqueEmail('reset');
    const signup = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const minted = await id.service.request('POST', '/api/auth/api-tokens', { token: signup.body.idToken, body: { name: 'before the reset', scope: 'read', password: GOOD_PASSWORD } });
    expect(minted.status).toBe(201);
    const res = await id.post('/api/auth/password-reset', { email: email.toUpperCase() });
    expect(res.status).toBe(204);
    const { token } = await linkFromMailbox(email);
    const eml = (await readdir(id.mailbox)).length;
    expect(eml).toBeGreaterThan(0);
    expect(await mailedTo(id.mailbox, email, 'Reset your FrameText password')).toContain('revokes every personal API token');

    const confirm = await id.post('/api/auth/password-reset/confirm', { token, password: 'brand new pass 7' });
    expect(confirm.status).toBe(204);
    expect((await id.post('/api/auth/login', { email, password: 'brand new pass 7' })).status).toBe(200);
    const old = await id.post('/api/auth/login', { email, password: GOOD_PASSWORD });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('auth/invalid-credential');
    expect((await id.post('/api/auth/refresh', { refreshToken: signup.body.refreshToken })).status).toBe(401);
    expect((await id.service.request('POST', '/internal/api-tokens/exchange', { workload: 'gateway', body: { token: minted.body.token } })).status).toBe(401);
    expect((await id.get('/internal/revocations', { workload: 'gateway' })).body.sessions).toContain(minted.body.apiToken.id);
    const notice = await mailedTo(id.mailbox, email, 'Your FrameText password was reset');
    expect(notice).toContain('every session of your account was signed out and every personal API token was revoked');

    const again = await id.post('/api/auth/password-reset/confirm', { token, password: 'another pass 8' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('auth/invalid-reset-token');
  });

  it('answers 204 for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const known = uniqueEmail('known');
    await id.post('/api/auth/signup', { email: known, password: GOOD_PASSWORD });
    expect((await id.post('/api/auth/password-reset', { email })).status).toBe(204);
    // None waits in the queue (a reset e-mail is queued before the answer)...
    expect(await id.db('mail_outbox').where({ to_address: email })).toEqual([]);
    // ...nor was sent. A reset for an address with an account comes next: queued mail goes out oldest first, so once
    // this one is in the mailbox, any queued before it is too.
    expect((await id.post('/api/auth/password-reset', { email: known })).status).toBe(204);
    await mailedTo(id.mailbox, known, 'Reset your FrameText password');
    const files = await readdir(id.mailbox);
    for (const f of files) expect(await readFile(join(id.mailbox, f), 'utf8')).not.toContain(email);
  });

  it('an expired token is refused and the password stays', async () => {
    const email = uniqueEmail('expired');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    await id.post('/api/auth/password-reset', { email });
    const { token } = await linkFromMailbox(email);
    await id.db('password_reset_tokens').update({ expires_at: new Date(Date.now() - 1000) });
    const res = await id.post('/api/auth/password-reset/confirm', { token, password: 'brand new pass 7' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('auth/invalid-reset-token');
    expect((await id.post('/api/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(200);
  });

  it('the token lives one hour', async () => {
    const email = uniqueEmail('ttl');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    await id.post('/api/auth/password-reset', { email });
    await linkFromMailbox(email);
    const row = await id.db('password_reset_tokens as t').join('users as u', 'u.uid', 't.user_id').where('u.email', email).first('t.created_at', 't.expires_at');
    const minutes = (row.expires_at.getTime() - row.created_at.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThan(61);
  });

  it('names its errors: missing email, invalid email, weak password, bad token, missing token', async () => {
    const missing = await id.post('/api/auth/password-reset', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'auth/missing-email', message: 'Please fill in your email and click "Forgot password" again.' });
    expect((await id.post('/api/auth/password-reset', { email: 'nope' })).body.error.code).toBe('auth/invalid-email');
    const weak = await id.post('/api/auth/password-reset/confirm', { token: 'whatever', password: 'short' });
    expect(weak.body.error.code).toBe('auth/weak-password');
    const bad = await id.post('/api/auth/password-reset/confirm', { token: 'not-a-token', password: 'brand new pass 7' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('auth/invalid-reset-token');
    expect((await id.post('/api/auth/password-reset/confirm', { password: 'brand new pass 7' })).body.error.code).toBe('auth/missing-reset-token');
  });

  it('keeps the e-mail queued while the mail server is down and sends it once it is back; an expired one is dropped', async () => {
    const email = uniqueEmail('queued');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    const working = id.ctx.mailer;
    // A real SMTP client pointed at a port where nothing listens: every send fails with ECONNREFUSED.
    id.ctx.mailer = smtpMailer('smtp://127.0.0.1:1', 'FrameText <no-reply@frametext.test>');
    try {
      expect((await id.post('/api/auth/password-reset', { email })).status).toBe(204);
      const queued = await eventually(async () => {
        const row = await id.db('mail_outbox').where({ to_address: email }).first();
        return row?.attempts === 1 ? row : undefined;
      });
      expect(queued.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(queued.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
    } finally {
      id.ctx.mailer = working;
    }
    // The retry is due: the next round (the timer's, any replica's) sends it and forgets the link.
    await id.db('mail_outbox').where({ to_address: email }).update({ next_attempt_at: new Date(Date.now() - 1000) });
    await deliverQueuedMail(id.ctx);
    const { token } = await linkFromMailbox(email);
    expect(token.length).toBeGreaterThan(20);
    expect(await id.db('mail_outbox').where({ to_address: email }).first()).toBeUndefined();

    // A mail whose link has expired by the time the server is back is not sent.
    const late = uniqueEmail('late');
    await id.db('mail_outbox').insert({ to_address: late, subject: 's', body: 'b', send_before: new Date(Date.now() - 1000) });
    await deliverQueuedMail(id.ctx);
    expect(await id.db('mail_outbox').where({ to_address: late }).first()).toBeUndefined();
    const files = await readdir(id.mailbox);
    for (const f of files) expect(await readFile(join(id.mailbox, f), 'utf8')).not.toContain(late);
  });

  it('waits 30 s before the first retry, doubling up to 15 minutes', () => {
    expect([0, 1, 2, 10].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 900_000]);
  });
});

describe('where reset links go', () => {
  it('keeps the mailbox folder and its mail readable by their owner only', async () => {
    const email = uniqueEmail('private');
    await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
    await id.post('/api/auth/password-reset', { email });
    await linkFromMailbox(email);
    expect((await stat(id.mailbox)).mode & 0o777).toBe(0o700);
    for (const f of await readdir(id.mailbox)) expect((await stat(join(id.mailbox, f))).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['never logs the link outside development', 'test', false],
    ['logs the link on a developer machine (NODE_ENV=development), with no SMTP', 'development', true],
  ])('%s', async (_name, nodeEnv, logged) => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
    const service = await startTestService({
      role: 'identity',
      configSchema: identityConfigSchema,
      env: { NODE_ENV: nodeEnv, LOG_LEVEL: 'info' },
      define: (config, t) => identityService(config, { dbSchema: t.schema, logger: createLogger('identity', 'info', sink) }),
    });
    try {
      const email = uniqueEmail('logged');
      await service.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
      expect((await service.post('/api/auth/password-reset', { email })).status).toBe(204);
      await eventually(() => lines.some((l) => l.includes('mail written to the local mailbox')));
      expect(lines.some((l) => l.includes('reset-password?token='))).toBe(logged);
    } finally {
      await service.stop();
    }
  });
});

