import type { Knex } from '@frametext/service-kit';
import { revokeUserApiTokens } from '../data/api-tokens.js';
import { revokeUserFamilies } from '../data/sessions.js';

/*
 * Access ends with the password: a password reset, a password change, a Google link (which drops the password) and
 * account deletion end every session and revoke every personal API token of the account, in the caller's
 * transaction. Both are listed in the feed of ended sessions, so the gateway and every service refuse them within
 * seconds (docs/security.md).
 */

export type AccessEndReason = 'password-reset' | 'password-change' | 'google-link' | 'account-deleted';

/** Ends every session and revokes every personal API token of `userId`; answers how many of each ended. */
export async function endAllAccess(trx: Knex.Transaction, userId: string, reason: AccessEndReason): Promise<{ sessions: number; apiTokens: number }> {
  const sessions = await revokeUserFamilies(trx, userId, reason);
  const apiTokens = await revokeUserApiTokens(trx, userId);
  return { sessions, apiTokens };
}
