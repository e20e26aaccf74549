import type { IdentityContext } from './context.js';
import { confirmationTokens, resetTokens } from '../data/single-use-tokens.js';
import { pruneRevokedApiTokens } from '../data/api-tokens.js';
import { pruneLoginAttempts } from '../data/login-attempts.js';
import { pruneFlows } from '../data/oidc-flows.js';
import { pruneCounters } from '../data/rate-limits.js';
import { pruneIdleRequestBudgets } from '../data/request-budgets.js';
import { pruneExpiredRefreshTokens } from '../data/sessions.js';
import { pruneDeletedUsers } from '../data/users.js';
import { revocationWindowMs } from './sessions.js';

const DAY_MS = 86_400_000;

/** Periodic work of every replica: rotate the signing key when due, and drop rows nobody can use any more. */
export async function runMaintenance(ctx: IdentityContext): Promise<void> {
  await ctx.keys.ensureFresh();
  const now = Date.now();
  await pruneCounters(ctx.db, new Date(now - DAY_MS));
  await pruneFlows(ctx.db, new Date(now - DAY_MS));
  // A day after its last failure an address starts afresh; an address unused for 90 days is no longer known.
  await pruneLoginAttempts(ctx.db, new Date(now - DAY_MS), new Date(now - 90 * DAY_MS));
  await resetTokens.prune(ctx.db, new Date(now - 7 * DAY_MS));
  await confirmationTokens.prune(ctx.db, new Date(now - 7 * DAY_MS));
  // Kept a week past expiry so a late replay of a spent token is still seen as reuse.
  await pruneExpiredRefreshTokens(ctx.db, new Date(now - 7 * DAY_MS));
  // A deleted account's tombstone (and its sessions) goes once the revocation feed no longer lists those sessions.
  await pruneDeletedUsers(ctx.db, new Date(now - revocationWindowMs(ctx.config)));
  // Likewise a revoked API token's row, which the feed lists until then.
  await pruneRevokedApiTokens(ctx.db, new Date(now - revocationWindowMs(ctx.config)));
  // A budget untouched for a minute has refilled: its row says nothing no row would.
  await pruneIdleRequestBudgets(ctx.db, new Date(now - 10 * 60_000));
}

/** Use case: make a new signing key active now (operators; tests). Tokens signed before stay valid until they expire. */
export function rotateSigningKey(ctx: IdentityContext): Promise<string> {
  return ctx.keys.rotate();
}
