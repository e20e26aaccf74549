import type { DeleteAccountProofResponse } from '@frametext/contracts';
import { enqueueEvent, forgetOutboxEvents } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { endAllAccess } from './access-revocation.js';
import { authError } from './errors.js';
import { forgetAccountLimits } from './rate-limits.js';
import { checkOwnerPassword, reauthenticationFor } from './reauthentication.js';
import { provenSession, type ProvenSession } from './sessions.js';
import { dropMailTo } from '../data/mail-outbox.js';
import { resetTokens } from '../data/single-use-tokens.js';
import { isFamilyLive } from '../data/sessions.js';
import { eraseUser, findUserById, lockLiveUser, type User } from '../data/users.js';

/*
 * A person deletes their own account. The session proves who asks (the refresh token, as log-out takes it); an
 * account with a password must also give it, and a Google-only account, which has none, must have signed in within
 * the last RECENT_SIGN_IN_MINUTES. Then, in one transaction: every session of theirs is revoked (the revocation feed
 * lists them, so their access tokens stop working everywhere within seconds), their personal data is erased (the
 * row stays as an anonymous tombstone while the feed needs it; the e-mail is free to sign up again at once), and
 * user.deleted.v1 goes to the outbox for results, upload and billing.
 */

type Proof = DeleteAccountProofResponse['proof'];

function proofFor(ctx: IdentityContext, user: User, session: ProvenSession): Proof {
  return reauthenticationFor(ctx, user, session.startedAt);
}

function recentSignInNeeded(ctx: IdentityContext) {
  const minutes = ctx.config.RECENT_SIGN_IN_MINUTES;
  return authError(
    'auth/requires-recent-login',
    `For your safety, deleting an account that signs in with Google needs a sign-in from the last ${minutes} minutes. Please sign in again, then delete it.`,
  );
}

/** The account behind a proven session, or the answer a caller gets when there is none it may act on. */
async function ownerOf(ctx: IdentityContext, session: ProvenSession): Promise<User> {
  const user = await findUserById(ctx.db, session.userId);
  if (!user) throw authError('auth/invalid-refresh-token');
  if (user.disabled) throw authError('auth/user-disabled');
  return user;
}

/** What deleting the account would need now (the SPA asks before it shows its dialog). */
export async function deletionProof(ctx: IdentityContext, refreshToken: string): Promise<DeleteAccountProofResponse> {
  const session = await provenSession(ctx, refreshToken);
  const user = await ownerOf(ctx, session);
  return { proof: proofFor(ctx, user, session), recentSignInMinutes: ctx.config.RECENT_SIGN_IN_MINUTES };
}

/**
 * Deletes the account of the session's owner. A wrong password answers what a wrong log-in answers (401
 * auth/invalid-credential) and counts as a failed log-in from `address` for the rate limits, which also apply before
 * the password is checked. The password is checked before the transaction, which then makes sure the session is still
 * live and the account still there. Answers the time of deletion.
 */
export async function deleteAccount(ctx: IdentityContext, input: { refreshToken: string; password?: string }, address: string): Promise<Date> {
  const session = await provenSession(ctx, input.refreshToken);
  const user = await ownerOf(ctx, session);
  const proof = proofFor(ctx, user, session);
  if (proof === 'sign-in-again') throw recentSignInNeeded(ctx);
  if (proof === 'password') {
    if (!input.password) throw authError('auth/missing-password');
    await checkOwnerPassword(ctx, user, input.password, address);
  }

  const { deletedAt, sessions } = await ctx.db.transaction(async (trx) => {
    const live = await lockLiveUser(trx, user.uid, 'update');
    // Deleted by a concurrent call, or this session ended (logged out elsewhere) while the password was checked.
    if (!live || !(await isFamilyLive(trx, session.familyId))) throw authError('auth/invalid-refresh-token');
    const { sessions: revoked } = await endAllAccess(trx, live.uid, 'account-deleted');
    await resetTokens.deleteAllOf(trx, live.uid);
    await forgetAccountLimits(trx, live);
    await dropMailTo(trx, live.email);
    // The outbox keeps sent events, and user.created.v1 carries the e-mail. An unsent one is dropped too: billing
    // then never hears of the account, which user.deleted.v1 closes all the same.
    await forgetOutboxEvents(trx, { type: 'user.created.v1', field: 'uid', value: live.uid });
    const at = await eraseUser(trx, live.uid);
    await enqueueEvent(trx, 'user.deleted.v1', { uid: live.uid, deletedAt: at.toISOString() });
    return { deletedAt: at, sessions: revoked };
  });
  ctx.logger.info({ userId: user.uid, sessions }, 'account deleted: sessions revoked, personal data erased');
  return deletedAt;
}
