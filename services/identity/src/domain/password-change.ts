import type { AuthSession, PasswordChangeRequest } from '@frametext/contracts';
import type { IdentityContext } from './context.js';
import { queueAccessEndedMail } from './access-ended-mail.js';
import { endAllAccess } from './access-revocation.js';
import { authError } from './errors.js';
import { kickMailDelivery } from './mail-delivery.js';
import { assertStrongPassword, hashPassword } from './passwords.js';
import { checkOwnerPassword } from './reauthentication.js';
import type { SignedInSession } from './session-access.js';
import { startSession } from './sessions.js';
import { resetTokens } from '../data/single-use-tokens.js';
import { isFamilyLive } from '../data/sessions.js';
import { lockLiveUser, setPasswordHash } from '../data/users.js';

/*
 * A signed-in person changes their password, giving the current one (a wrong one counts as a failed log-in from
 * `address`). Access ends with the password: in one transaction every session and personal API token of the account
 * ends, reset links still out are spent and the owner is told by e-mail. The caller gets a new session, since theirs
 * ended with the others. A Google-only account has no password to change: a reset link sets one (409).
 */

const WRONG_CURRENT = 'That is not your current password. Please type it again.';

export async function changePassword(ctx: IdentityContext, session: SignedInSession, input: PasswordChangeRequest, address: string): Promise<AuthSession> {
  const { user } = session;
  if (!user.passwordHash) throw authError('auth/no-password');
  assertStrongPassword(input.newPassword);
  await checkOwnerPassword(ctx, user, input.currentPassword, address, WRONG_CURRENT);
  const passwordHash = await hashPassword(input.newPassword);

  const ended = await ctx.db.transaction(async (trx) => {
    const live = await lockLiveUser(trx, user.uid, 'update');
    // The account was deleted, or this session ended (another change, a log-out) while the password was checked.
    if (!live || !(await isFamilyLive(trx, session.familyId))) throw authError('auth/invalid-refresh-token');
    await setPasswordHash(trx, live.uid, passwordHash);
    await resetTokens.useAllOf(trx, live.uid);
    await queueAccessEndedMail(trx, ctx, live.email, 'password-change');
    return endAllAccess(trx, live.uid, 'password-change');
  });
  ctx.logger.info({ userId: user.uid, ...ended }, 'password changed: every session and API token ended');
  kickMailDelivery(ctx);

  const tokens = await startSession(ctx, user);
  return { ...tokens, user: { uid: user.uid, email: user.email, firstLogin: false } };
}
