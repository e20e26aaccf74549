import type { EmailConfirmationStatus } from '@frametext/contracts';
import { enqueueEvent, type Knex } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { kickMailDelivery } from './mail-delivery.js';
import { countConfirmationRequest } from './rate-limits.js';
import { randomToken, sha256 } from './sessions.js';
import { confirmationTokens } from '../data/single-use-tokens.js';
import { queueMail } from '../data/mail-outbox.js';
import { lockLiveUser, markEmailConfirmed, type User } from '../data/users.js';

/*
 * An account's e-mail address is proven once: by the single-use link mailed at sign-up (or sent again), or by Google
 * vouching for it. That moment writes user.email-confirmed.v1 to the outbox in the same transaction, and billing
 * grants the free credits on it, so an address nobody can read earns nothing.
 */

export function confirmationLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/confirm-email?token=${encodeURIComponent(token)}`;
}

/**
 * Marks the address proven and announces it, in the caller's transaction: once per account (a second call changes
 * nothing and publishes nothing). Every confirmation link still out is spent with it.
 */
export async function confirmAddress(trx: Knex.Transaction, uid: string): Promise<boolean> {
  const confirmedAt = await markEmailConfirmed(trx, uid);
  if (!confirmedAt) return false;
  await confirmationTokens.useAllOf(trx, uid);
  await enqueueEvent(trx, 'user.email-confirmed.v1', { uid, confirmedAt: confirmedAt.toISOString() });
  return true;
}

/** Queues the confirmation mail with a new single-use link, in the caller's transaction (sent after it commits). */
export async function queueConfirmationMail(trx: Knex.Transaction, ctx: IdentityContext, user: Pick<User, 'uid' | 'email'>): Promise<void> {
  const token = randomToken();
  const hours = ctx.config.EMAIL_CONFIRMATION_TTL_HOURS;
  const expiresAt = new Date(Date.now() + hours * 3_600_000);
  const link = confirmationLink(ctx.config.APP_URL, token);
  await confirmationTokens.insert(trx, sha256(token), user.uid, expiresAt);
  await queueMail(
    trx,
    {
      to: user.email,
      subject: 'Confirm your FrameText e-mail address',
      text: [
        'Welcome to FrameText!',
        '',
        `Open this link within ${hours} hours to confirm your e-mail address and get your free credits:`,
        link,
        '',
        'If you did not sign up for FrameText, ignore this e-mail: nothing happens without the link.',
      ].join('\n'),
    },
    expiresAt,
  );
  // The link proves the address: it goes into a log only on a developer's own machine.
  if (!ctx.config.SMTP_URL && ctx.config.NODE_ENV === 'development') ctx.logger.info({ link, to: user.email }, 'confirmation link (no SMTP_URL: see the mailbox folder)');
}

/** Where the signed-in account stands. */
export function confirmationStatus(user: User): EmailConfirmationStatus {
  return { email: user.email, confirmed: user.emailConfirmedAt !== null };
}

/** Mails a new link to the signed-in person (409 once confirmed; a few an hour at most). Older links stay usable. */
export async function resendConfirmation(ctx: IdentityContext, user: User): Promise<void> {
  if (user.emailConfirmedAt) throw authError('auth/email-already-confirmed');
  await countConfirmationRequest(ctx, user.email);
  await ctx.db.transaction(async (trx) => {
    const live = await lockLiveUser(trx, user.uid, 'share');
    if (!live || live.emailConfirmedAt) throw authError('auth/email-already-confirmed');
    await queueConfirmationMail(trx, ctx, live);
  });
  kickMailDelivery(ctx);
}

/**
 * The link was opened: a live, unused, unexpired token proves its account's address. Used, expired, unknown or of a
 * deleted account: 400, and nothing changes. Answers the address confirmed.
 */
export async function confirmEmail(ctx: IdentityContext, token: string): Promise<EmailConfirmationStatus> {
  const user = await ctx.db.transaction(async (trx) => {
    const row = await confirmationTokens.findForUpdate(trx, sha256(token));
    if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw authError('auth/invalid-confirmation-token');
    const live = await lockLiveUser(trx, row.userId, 'update');
    if (!live) throw authError('auth/invalid-confirmation-token');
    // Proven already (by Google meanwhile): the link is spent all the same.
    if (!(await confirmAddress(trx, live.uid))) await confirmationTokens.useAllOf(trx, live.uid);
    return live;
  });
  ctx.logger.info({ userId: user.uid }, 'e-mail address confirmed');
  return { email: user.email, confirmed: true };
}
