import type { IdentityContext } from './context.js';
import { pruneFlows } from '../data/oidc-flows.js';
import { pruneCounters } from '../data/rate-limits.js';
import { pruneResetTokens } from '../data/reset-tokens.js';
import { pruneExpiredRefreshTokens } from '../data/sessions.js';

const DAY_MS = 86_400_000;

/** Periodic work of every replica: rotate the signing key when due, and drop rows nobody can use any more. */
export async function runMaintenance(ctx: IdentityContext): Promise<void> {
  await ctx.keys.ensureFresh();
  const now = Date.now();
  await pruneCounters(ctx.db, new Date(now - DAY_MS));
  await pruneFlows(ctx.db, new Date(now - DAY_MS));
  await pruneResetTokens(ctx.db, new Date(now - 7 * DAY_MS));
  // Kept a week past expiry so a late replay of a spent token is still seen as reuse.
  await pruneExpiredRefreshTokens(ctx.db, new Date(now - 7 * DAY_MS));
}

/** Use case: make a new signing key active now (operators; tests). Tokens signed before stay valid until they expire. */
export function rotateSigningKey(ctx: IdentityContext): Promise<string> {
  return ctx.keys.rotate();
}
