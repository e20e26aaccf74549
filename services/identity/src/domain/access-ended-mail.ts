import type { Knex } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { queueMail } from '../data/mail-outbox.js';

/*
 * The e-mail that tells a person their access ended: after a password reset, a password change or a Google link,
 * every session was signed out and every personal API token revoked. It is queued in the transaction that ended
 * them, so it goes out if and only if they ended, and it holds no link that signs anyone in.
 */

export type AccessEndedBy = 'password-reset' | 'password-change' | 'google-link';

/** A notice is worth sending late, but not days late. */
const SEND_WITHIN_MS = 24 * 3_600_000;

/** What signing out everywhere means, in the words of the mail, the pages and the docs. */
export const ACCESS_ENDED =
  'For your safety, every session of your account was signed out and every personal API token was revoked. Scripts that used a token now get 401: create a new token for them on the Account page.';

const WHAT_HAPPENED: Record<AccessEndedBy, { subject: string; lines: string[] }> = {
  'password-reset': {
    subject: 'Your FrameText password was reset',
    lines: ['The password of your FrameText account was just reset with the link we e-mailed to this address.'],
  },
  'password-change': {
    subject: 'Your FrameText password was changed',
    lines: ['The password of your FrameText account was just changed on the Account page.'],
  },
  'google-link': {
    subject: 'Your FrameText account now signs in with Google',
    lines: [
      'Someone signed in to FrameText with the Google account of this address, so your FrameText account now signs in with Google.',
      'The password the account had was removed: use Google to sign in, or choose "Forgot password?" on the log-in page to set a new one.',
    ],
  },
};

export async function queueAccessEndedMail(trx: Knex.Transaction, ctx: IdentityContext, to: string, by: AccessEndedBy): Promise<void> {
  const { subject, lines } = WHAT_HAPPENED[by];
  const login = `${ctx.config.APP_URL.replace(/\/+$/, '')}/login`;
  const text = [
    ...lines,
    '',
    ACCESS_ENDED,
    '',
    `If this was not you, choose "Forgot password?" at ${login} now to set a password only you know, and reply to this e-mail.`,
  ].join('\n');
  await queueMail(trx, { to, subject, text }, new Date(Date.now() + SEND_WITHIN_MS));
}
