// Access ends with the password, through the real gateway, identity and services, with a
// second gateway in its own process: a password reset, a password change and a Google link end every session and
// every personal API token, on every replica within the stated bound; minting a token needs the password (or, for
// an account without one, a fresh sign-in), not just an access token; and the token list tells each token's last use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mailedTo } from '../../services/identity/test/helpers.js';
import { FakeOidc, googleEnv, googleSignIn } from '../../services/identity/test/support/fake-oidc.js';
import { useStack } from '../support/use-stack.js';

const CACHE_MS = 5_000;
const ACCESS_ENDED = 'every session of your account was signed out and every personal API token was revoked';
const provider = new FakeOidc();
beforeAll(() => provider.start());
afterAll(() => provider.stop());
const stack = useStack(() => ({ ...googleEnv(provider), API_TOKEN_CACHE_MS: String(CACHE_MS) }));
let gateways: string[];
beforeAll(async () => {
  gateways = [stack.base, await stack.addGatewayProcess()];
}, 120_000);

type Person = Awaited<ReturnType<typeof stack.signUp>>;

async function mint(session: string, body: Record<string, unknown>) {
  return stack.api('POST', '/auth/api-tokens', { name: `script ${randomUUID().slice(0, 8)}`, scope: 'read', ...body }, session);
}

/** A token of `person`'s, made as the Account page makes it, and used once at every gateway (each holds its exchange). */
async function usedToken(person: Person): Promise<{ token: string; id: string }> {
  const res = await mint(person.token, { password: person.password });
  expect(res.status).toBe(201);
  const token = res.body.token as string;
  for (const gateway of gateways) expect((await readWith(gateway, token)).status).toBe(200);
  return { token, id: res.body.apiToken.id as string };
}

async function readWith(gateway: string, token: string): Promise<{ status: number; body: { error?: { code: string; message: string } } }> {
  const res = await fetch(`${gateway}/api/getUserData`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

/** Every gateway comes to refuse `token` (each holds an exchanged token up to API_TOKEN_CACHE_MS), as it refuses a token revoked by hand. */
async function expectRefusedEverywhere(token: string): Promise<void> {
  for (const gateway of gateways) {
    await expect.poll(async () => (await readWith(gateway, token)).status, { timeout: 30_000, interval: 100 }).toBe(401);
    expect((await readWith(gateway, token)).body.error).toMatchObject({ code: 'auth/api-token-invalid', message: 'This API token was revoked or does not exist.' });
  }
}

/** The Google sign-in of a browser at the gateway's door: the session in the /login fragment. */
async function googleSession(email: string, sub = `g-${randomUUID()}`) {
  const get = async (path: string) => {
    const res = await fetch(`${stack.base}${path}`, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location') };
  };
  const { fragment } = await googleSignIn(provider, get, { sub, email });
  expect(fragment.get('error')).toBeNull();
  return { token: fragment.get('idToken')!, refreshToken: fragment.get('refreshToken')! };
}

/** Ages a session as if it had been signed in `minutes` ago (its access token stays valid). */
async function signedInAgo(accessToken: string, minutes: number): Promise<void> {
  const { sid } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
  await stack.db('identity')('refresh_sessions').where({ family_id: sid }).update({ created_at: new Date(Date.now() - minutes * 60_000) });
}

describe('minting a token', () => {
  it('an access token alone is refused, old or new, with what to do; a wrong password too; the password makes one', async () => {
    const person = await stack.signUp();
    await signedInAgo(person.token, 60);
    const alone = await mint(person.token, {});
    expect(alone.status).toBe(401);
    expect(alone.body.error).toMatchObject({ code: 'auth/password-required', message: 'Enter your password to create an API token (a script sends it as "password" with the name and scope).' });
    const wrong = await mint(person.token, { password: 'not-the-password-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('auth/invalid-credential');
    expect((await stack.api('GET', '/auth/api-tokens', undefined, person.token)).body.tokens).toEqual([]);

    const made = await mint(person.token, { password: person.password });
    expect(made.status).toBe(201);
    expect((await readWith(stack.base, made.body.token)).status).toBe(200);
  });

  it('an account without a password (Google only) needs a sign-in from the last 5 minutes, and is told to sign in again after', async () => {
    const session = await googleSession(`google-only-${randomUUID()}@example.com`);
    expect((await stack.api('GET', '/auth/reauthentication', undefined, session.token)).body).toEqual({ proof: 'recent-sign-in', recentSignInMinutes: 5 });
    expect((await mint(session.token, {})).status).toBe(201);

    await signedInAgo(session.token, 6);
    const stale = await mint(session.token, {});
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('auth/requires-recent-login');
    expect(stale.body.error.message).toContain('Please sign in again, then create it.');
  });
});

describe('the token list', () => {
  it('says "never used" until a call, then when the call was', async () => {
    const person = await stack.signUp();
    const made = await mint(person.token, { password: person.password });
    const listed = async () => (await stack.api('GET', '/auth/api-tokens', undefined, person.token)).body.tokens as { id: string; lastUsedAt: string | null }[];
    expect(await listed()).toEqual([expect.objectContaining({ id: made.body.apiToken.id, lastUsedAt: null })]);

    expect((await readWith(gateways[1]!, made.body.token)).status).toBe(200);
    const [entry] = await listed();
    expect(entry!.lastUsedAt).not.toBeNull();
    expect(Date.parse(entry!.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(made.body.apiToken.createdAt));
  });
});

describe('access ends with the password', () => {
  it('a password reset by the mailed link ends every API token on every gateway, and every session', async () => {
    const person = await stack.signUp();
    const { token } = await usedToken(person);
    expect((await stack.api('POST', '/auth/password-reset', { email: person.email })).status).toBe(204);
    const mail = await mailedTo(stack.mailbox, person.email, 'Reset your FrameText password');
    expect(mail).toContain('revokes every personal API token');
    const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail)![1]!;

    expect((await stack.api('POST', '/auth/password-reset/confirm', { token: resetToken, password: 'after-the-reset-2' })).status).toBe(204);
    await expectRefusedEverywhere(token);
    expect((await stack.api('POST', '/auth/refresh', { refreshToken: person.refreshToken })).status).toBe(401);
    expect(await mailedTo(stack.mailbox, person.email, 'Your FrameText password was reset')).toContain(ACCESS_ENDED);
  });

  it('a password change ends every API token on every gateway and every other session; the caller gets a new session', async () => {
    const person = await stack.signUp();
    const { token } = await usedToken(person);
    const changed = await stack.api('POST', '/auth/password-change', { currentPassword: person.password, newPassword: 'after-the-change-3' }, person.token);
    expect(changed.status).toBe(200);
    await expectRefusedEverywhere(token);
    expect((await stack.api('POST', '/auth/refresh', { refreshToken: person.refreshToken })).status).toBe(401);
    expect((await stack.api('GET', '/auth/api-tokens', undefined, changed.body.idToken)).body.tokens).toEqual([]);
    expect(await mailedTo(stack.mailbox, person.email, 'Your FrameText password was changed')).toContain(ACCESS_ENDED);
  });

  it('linking a Google account to the address ends every API token on every gateway and every session', async () => {
    const person = await stack.signUp();
    const { token } = await usedToken(person);
    const google = await googleSession(person.email);
    await expectRefusedEverywhere(token);
    expect((await stack.api('POST', '/auth/refresh', { refreshToken: person.refreshToken })).status).toBe(401);
    expect((await stack.api('GET', '/auth/api-tokens', undefined, google.token)).body.tokens).toEqual([]);
    expect(await mailedTo(stack.mailbox, person.email, 'Your FrameText account now signs in with Google')).toContain(ACCESS_ENDED);
  });
});
