// A new account's free credits, through the gateway with every service running: nothing at sign-up, the credits once
// the e-mailed link is opened, and only once however often it is opened.
import { describe, expect, it } from 'vitest';
import { eventually, uniqueName } from '@frametext/service-kit/testing';
import { confirmationTokenIn, mailboxMessages } from '../../scripts/lib/mailbox.mjs';
import { useStack } from '../support/use-stack.js';

const FREE_CREDITS = 50;
const stack = useStack();

/** The link the confirmation mail holds, once it has arrived in identity's mailbox folder. */
async function mailedLink(email: string): Promise<URL> {
  const token = await eventually(async () => confirmationTokenIn(await mailboxMessages(stack.mailbox), email) as string | undefined);
  const mail = (await mailboxMessages(stack.mailbox)).find((m: string) => m.includes(`To: ${email}`))!;
  expect(mail).toContain('Subject: Confirm your FrameText e-mail address');
  return new URL(`/confirm-email?token=${encodeURIComponent(token)}`, stack.base);
}

describe('free credits come with a confirmed e-mail', () => {
  it('sign up: balance 0; open the mailed link: balance 50; open it again: still 50, granted once', async () => {
    const email = `${uniqueName('confirm')}@example.com`;
    const signup = await stack.api('POST', '/auth/signup', { email, password: 'confirm-pass-1' });
    expect(signup.status).toBe(201);
    const token = signup.body.idToken as string;
    const uid = signup.body.user.uid as string;

    // Billing has heard of the account (its e-mail is known) and granted nothing.
    const before = await eventually(async () => {
      const profile = await stack.api('GET', '/getUserData', undefined, token);
      return profile.body.email === email ? profile.body : undefined;
    });
    expect(before.credits).toBe(0);
    expect((await stack.api('GET', '/auth/email-confirmation', undefined, token)).body).toEqual({ email, confirmed: false });

    // What the page the link opens does: send the link's token.
    const link = await mailedLink(email);
    const confirmToken = link.searchParams.get('token')!;
    const confirmed = await stack.api('POST', '/auth/email-confirmation/confirm', { token: confirmToken });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ email, confirmed: true });
    await eventually(async () => (await stack.api('GET', '/getUserData', undefined, token)).body.credits === FREE_CREDITS);
    expect((await stack.api('GET', '/auth/email-confirmation', undefined, token)).body).toEqual({ email, confirmed: true });

    // Twice: the link is spent, nothing is announced again, and the one grant is all there is.
    const again = await stack.api('POST', '/auth/email-confirmation/confirm', { token: confirmToken });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('auth/invalid-confirmation-token');
    expect((await stack.api('POST', '/auth/email-confirmation', undefined, token)).body.error.code).toBe('auth/email-already-confirmed');
    const announced = await stack.db('identity')('outbox').where({ type: 'user.email-confirmed.v1' }).whereRaw(`envelope->'data'->>'uid' = ?`, [uid]);
    expect(announced).toHaveLength(1);
    // Billing handled that one announcement (the inbox holds it), so nothing else is on its way.
    expect(await stack.db('billing')('inbox').where({ message_id: announced[0].id })).toHaveLength(1);
    expect(await stack.db('billing')('ledger').where({ user_id: uid, kind: 'grant' })).toEqual([expect.objectContaining({ credits: FREE_CREDITS })]);
    expect((await stack.api('GET', '/getUserData', undefined, token)).body.credits).toBe(FREE_CREDITS);
  });

  it('an unconfirmed account can ask for the link again, and the new one works', async () => {
    const email = `${uniqueName('resend')}@example.com`;
    const signup = await stack.api('POST', '/auth/signup', { email, password: 'confirm-pass-1' });
    const token = signup.body.idToken as string;
    const first = await mailedLink(email);
    expect((await stack.api('POST', '/auth/email-confirmation', undefined, token)).status).toBe(204);
    const second = await eventually(async () => {
      const link = await mailedLink(email);
      return link.href !== first.href ? link : undefined;
    });
    expect((await stack.api('POST', '/auth/email-confirmation/confirm', { token: second.searchParams.get('token') })).status).toBe(200);
    await eventually(async () => (await stack.api('GET', '/getUserData', undefined, token)).body.credits === FREE_CREDITS);
  });
});
