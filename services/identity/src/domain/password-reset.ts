import type { IdentityContext } from './context.js';
import { queueAccessEndedMail } from './access-ended-mail.js';
import { endAllAccess } from './access-revocation.js';
import { kickMailDelivery } from './mail-delivery.js';
import { authError } from './errors.js';
import { assertStrongPassword, hashPassword, normalizeEmail } from './passwords.js';
import { countResetRequest } from './rate-limits.js';
import { randomToken, sha256 } from './sessions.js';
import { queueMail } from '../data/mail-outbox.js';
import { resetTokens } from '../data/single-use-tokens.js';
import { findUserByEmail, lockLiveUser, setPasswordHash } from '../data/users.js';

export function resetLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Answers the same whether or not the address has an account. The e-mail is queued with the token in one
 * transaction and sent after the answer, so neither the status nor the time taken tells a caller whether the
 * address exists, and a crash after the answer loses no e-mail (the queue is durable; see mail-delivery.ts).
 */
export async function requestPasswordReset(ctx: IdentityContext, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await countResetRequest(ctx, email);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ctx.config.PASSWORD_RESET_TTL_MINUTES * 60_000);
  const link = resetLink(ctx.config.APP_URL, token);
  await ctx.db.transaction(async (trx) => {
    await resetTokens.insert(trx, sha256(token), user.uid, expiresAt);
    await queueMail(
      trx,
      {
        to: user.email,
        subject: 'Reset your FrameText password',
        text: [
          'Someone (hopefully you) asked to reset the password of your FrameText account.',
          '',
          `Open this link within ${ctx.config.PASSWORD_RESET_TTL_MINUTES} minutes to choose a new password:`,
          link,
          '',
          'Setting a new password signs your account out everywhere and revokes every personal API token: scripts will need a new token.',
          '',
          'If you did not ask for this, ignore this e-mail: your password stays as it is.',
        ].join('\n'),
      },
      expiresAt,
    );
  });
  // The link signs whoever holds it in: it goes into a log only on a developer's own machine.
  if (!ctx.config.SMTP_URL && ctx.config.NODE_ENV === 'development') ctx.logger.info({ link, to: email }, 'password reset link (no SMTP_URL: see the mailbox folder)');
  kickMailDelivery(ctx);
}

/**
 * Sets a new password with a single-use token, spends every other reset link, ends every session and personal API
 * token (access ends with the password) and tells the owner so by e-mail.
 */
export async function confirmPasswordReset(ctx: IdentityContext, input: { token: string; password: string }): Promise<void> {
  assertStrongPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const ended = await ctx.db.transaction(async (trx) => {
    const token = await resetTokens.findForUpdate(trx, sha256(input.token));
    if (!token || token.usedAt || token.expiresAt.getTime() <= Date.now()) throw authError('auth/invalid-reset-token');
    const user = await lockLiveUser(trx, token.userId, 'update');
    if (!user) throw authError('auth/invalid-reset-token');
    await setPasswordHash(trx, user.uid, passwordHash);
    await resetTokens.useAllOf(trx, user.uid);
    await queueAccessEndedMail(trx, ctx, user.email, 'password-reset');
    return { userId: user.uid, ...(await endAllAccess(trx, user.uid, 'password-reset')) };
  });
  ctx.logger.info(ended, 'password reset: every session and API token ended');
  kickMailDelivery(ctx);
}
