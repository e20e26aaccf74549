import { createHash, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TokenPair } from '@frametext/contracts';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { createFamily, familyOfToken, findRefreshTokenForUpdate, insertRefreshToken, markSpent, revokeFamily } from '../data/sessions.js';
import { findUserById, type User } from '../data/users.js';

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Signs an RS256 access token with the active key (header kid): sub, email, iss, aud, iat, exp. */
export async function issueAccessToken(ctx: IdentityContext, user: Pick<User, 'uid' | 'email'>): Promise<string> {
  const { kid, privateKey } = await ctx.keys.activeSigner();
  return jwt.sign({ email: user.email }, privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    subject: user.uid,
    issuer: ctx.config.JWT_ISSUER,
    audience: ctx.config.JWT_AUDIENCE,
    expiresIn: ctx.config.ACCESS_TOKEN_TTL_SECONDS,
  });
}

function refreshExpiry(ctx: IdentityContext): Date {
  return new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
}

/** Starts a new session chain for a user who just proved who they are. */
export async function startSession(ctx: IdentityContext, user: Pick<User, 'uid' | 'email'>): Promise<TokenPair> {
  const refreshToken = randomToken();
  const familyId = randomUUID();
  await ctx.db.transaction(async (trx) => {
    await createFamily(trx, familyId, user.uid);
    await insertRefreshToken(trx, sha256(refreshToken), familyId, refreshExpiry(ctx));
  });
  return { idToken: await issueAccessToken(ctx, user), refreshToken, expiresIn: ctx.config.ACCESS_TOKEN_TTL_SECONDS };
}

type RefreshOutcome = { ok: true; userId: string; refreshToken: string } | { ok: false; reuse: boolean };

/**
 * Spends the presented refresh token and issues the next one of its chain. A token presented twice means
 * it leaked (or two clients share it): the whole chain is revoked, so the newest token stops working too.
 */
export async function refreshSession(ctx: IdentityContext, presented: string): Promise<TokenPair> {
  const outcome = await ctx.db.transaction(async (trx): Promise<RefreshOutcome> => {
    const token = await findRefreshTokenForUpdate(trx, sha256(presented));
    if (!token || token.familyRevokedAt) return { ok: false, reuse: false };
    if (token.spentAt) {
      await revokeFamily(trx, token.familyId, 'reuse');
      return { ok: false, reuse: true };
    }
    if (token.expiresAt.getTime() <= Date.now()) return { ok: false, reuse: false };
    await markSpent(trx, token.tokenHash);
    const next = randomToken();
    await insertRefreshToken(trx, sha256(next), token.familyId, refreshExpiry(ctx));
    return { ok: true, userId: token.userId, refreshToken: next };
  });
  if (!outcome.ok) {
    if (outcome.reuse) ctx.logger.warn('refresh token reused; its session chain is revoked');
    throw authError('auth/invalid-refresh-token');
  }
  const user = await findUserById(ctx.db, outcome.userId);
  if (!user) throw authError('auth/invalid-refresh-token');
  if (user.disabled) throw authError('auth/user-disabled');
  return { idToken: await issueAccessToken(ctx, user), refreshToken: outcome.refreshToken, expiresIn: ctx.config.ACCESS_TOKEN_TTL_SECONDS };
}

/** Revokes the chain of the presented token; an unknown token is not an error (the session is gone either way). */
export async function endSession(ctx: IdentityContext, presented: string): Promise<void> {
  const familyId = await familyOfToken(ctx.db, sha256(presented));
  if (familyId) await revokeFamily(ctx.db, familyId, 'logout');
}
