import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@frametext/service-kit/testing';
import { emailConfirmationStatusSchema } from '@frametext/contracts';
import { GOOD_PASSWORD, freshIp, mailedTo, startIdentity, uniqueEmail, type TestIdentity } from './helpers.js';

const SUBJECT = 'Confirm your FrameText e-mail address';

let id: TestIdentity;
beforeAll(async () => {
  id = await startIdentity({ APP_URL: 'http://app.test:8080', RATE_LIMIT_CONFIRMATION_PER_HOUR: '2' });
});
afterAll(async () => {
  await id?.stop();
});

async function signedUp() {
  const email = uniqueEmail('confirm');
  const res = await id.post('/api/auth/signup', { email, password: GOOD_PASSWORD });
  expect(res.status).toBe(201);
  return { email, uid: res.body.user.uid as string, idToken: res.body.idToken as string };
}

/** The confirmation tokens mailed to `email`, oldest first, once there are `count` of them. */
function mailedTokens(email: string, count = 1): Promise<string[]> {
  return eventually(async () => {
    const tokens: string[] = [];
    for (const f of (await readdir(id.mailbox).catch(() => [] as string[])).sort()) {
      const text = (await readFile(join(id.mailbox, f), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = text.includes(`To: ${email}`) && /http:\/\/app\.test:8080\/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(text);
      if (link) tokens.push(decodeURIComponent(link[1]!));
    }
    return tokens.length >= count ? tokens : undefined;
  });
}

const status = (idToken: string) => id.service.request('GET', '/api/auth/email-confirmation', { token: idToken });
const resend = (idToken: string) => id.service.request('POST', '/api/auth/email-confirmation', { token: idToken, headers: { 'x-forwarded-for': freshIp() } });
const confirm = (token: unknown) => id.post('/api/auth/email-confirmation/confirm', token === undefined ? {} : { token });
const confirmedEvents = (uid: string) => id.db('outbox').where({ type: 'user.email-confirmed.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [uid]);

describe('e-mail confirmation', () => {
  it('mails a single-use link at sign-up; opening it confirms the address once and announces it once', async () => {
    const me = await signedUp();
    expect(emailConfirmationStatusSchema.parse((await status(me.idToken)).body)).toEqual({ email: me.email, confirmed: false });
    const mail = await mailedTo(id.mailbox, me.email, SUBJECT);
    expect(mail).toContain('get your free credits');
    expect(await confirmedEvents(me.uid)).toEqual([]);

    const [token] = await mailedTokens(me.email);
    const first = await confirm(token);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ email: me.email, confirmed: true });
    expect((await status(me.idToken)).body).toEqual({ email: me.email, confirmed: true });
    const events = await confirmedEvents(me.uid);
    expect(events).toHaveLength(1);
    expect(events[0].envelope.data).toEqual({ uid: me.uid, confirmedAt: expect.any(String) });

    // The same link again: used, so refused, and nothing is announced twice.
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('auth/invalid-confirmation-token');
    expect(await confirmedEvents(me.uid)).toHaveLength(1);
    // Nothing left to confirm: a new link is not sent.
    expect((await resend(me.idToken)).body.error.code).toBe('auth/email-already-confirmed');
  });

  it('sends a new link on request; the first link used spends the others', async () => {
    const me = await signedUp();
    await mailedTokens(me.email);
    expect((await resend(me.idToken)).status).toBe(204);
    const [older, newer] = await mailedTokens(me.email, 2);
    expect((await confirm(newer)).status).toBe(200);
    expect((await confirm(older)).body.error.code).toBe('auth/invalid-confirmation-token');
    expect(await confirmedEvents(me.uid)).toHaveLength(1);
  });

  it('sends at most RATE_LIMIT_CONFIRMATION_PER_HOUR links again per hour (429)', async () => {
    const me = await signedUp();
    expect((await resend(me.idToken)).status).toBe(204);
    expect((await resend(me.idToken)).status).toBe(204);
    const third = await resend(me.idToken);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('auth/too-many-requests');
  });

  it('refuses an expired link, an unknown one, a missing one, and a link of a deleted account', async () => {
    const me = await signedUp();
    const [token] = await mailedTokens(me.email);
    await id.db('email_confirmation_tokens').where({ user_id: me.uid }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await confirm(token)).body.error.code).toBe('auth/invalid-confirmation-token');
    expect((await confirm('not-a-token')).status).toBe(400);
    expect((await confirm(undefined)).body.error.code).toBe('auth/missing-confirmation-token');
    expect(await confirmedEvents(me.uid)).toEqual([]);

    const gone = await signedUp();
    const [goneToken] = await mailedTokens(gone.email);
    const login = await id.post('/api/auth/login', { email: gone.email, password: GOOD_PASSWORD });
    expect((await id.post('/api/auth/delete-account', { refreshToken: login.body.refreshToken, password: GOOD_PASSWORD })).status).toBe(204);
    expect((await confirm(goneToken)).body.error.code).toBe('auth/invalid-confirmation-token');
    expect(await confirmedEvents(gone.uid)).toEqual([]);
  });

  it('tells and resends only to a signed-in session: no token, or a personal API token, is 401', async () => {
    const me = await signedUp();
    expect((await id.get('/api/auth/email-confirmation')).status).toBe(401);
    const minted = await id.service.request('POST', '/api/auth/api-tokens', { token: me.idToken, body: { name: 'script', scope: 'read', password: GOOD_PASSWORD } });
    const refused = await id.service.request('GET', '/api/auth/email-confirmation', { token: minted.body.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('auth/session-required');
  });
});
