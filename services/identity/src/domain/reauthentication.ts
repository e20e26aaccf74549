import type { ReauthenticationResponse } from '@frametext/contracts';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { verifyPassword } from './passwords.js';
import { assertLoginAllowed, countLoginFailure } from './rate-limits.js';
import type { User } from '../data/users.js';

/*
 * Steps only the owner may take (deleting the account, creating an API token, changing the password) need more than
 * a session, whose access token may have been copied: the password of an account that has one; for a Google-only
 * account, which has none, a session started (signed in) within the last RECENT_SIGN_IN_MINUTES.
 */

export type Reauthentication = ReauthenticationResponse['proof'];

/** What the owner of a session started at `startedAt` must add now. */
export function reauthenticationFor(ctx: IdentityContext, user: Pick<User, 'passwordHash'>, startedAt: Date): Reauthentication {
  if (user.passwordHash) return 'password';
  const age = Date.now() - startedAt.getTime();
  return age <= ctx.config.RECENT_SIGN_IN_MINUTES * 60_000 ? 'recent-sign-in' : 'sign-in-again';
}

/**
 * Checks the owner's password as a log-in does: the rate limits apply first (429), and a wrong password counts as a
 * failed log-in from `address` and answers 401 auth/invalid-credential (with `wrongMessage` when given).
 */
export async function checkOwnerPassword(ctx: IdentityContext, user: User, password: string, address: string, wrongMessage?: string): Promise<void> {
  await assertLoginAllowed(ctx, user.email, address, user);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    await countLoginFailure(ctx, user.email, address);
    throw authError('auth/invalid-credential', wrongMessage);
  }
}
