import { createHash, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ApiTokenScope, TokenPair } from '@frametext/contracts';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import {
  createFamily,
  familiesRevokedSince,
  familyOfToken,
  findRefreshTokenForUpdate,
  findTokenSession,
  insertRefreshToken,
  markSpent,
  revokeFamily,
} from '../data/sessions.js';
import { apiTokensRevokedSince } from '../data/api-tokens.js';
import { findUserById, lockLiveUser, type User } from '../data/users.js';

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
export const randomToken = (): string => randomBytes(32).toString('base64url');

/**
 * Signs an RS256 access token with the active key (header kid): sub, email, sid (the session chain, so that
 * ending the session ends its access tokens too), iss, aud, iat, exp.
 */
export async function issueAccessToken(
  ctx: IdentityContext,
  user: Pick<User, 'uid' | 'email'>,
  sessionId: string,
  apiToken?: { scope: ApiTokenScope; expiresIn: number },
): Promise<string> {
  const { kid, privateKey } = await ctx.keys.activeSigner();
  // A personal API token's access token also names its scope; its sid is the token's id.
  const claims = apiToken ? { email: user.email, sid: sessionId, scope: apiToken.scope } : { email: user.email, sid: sessionId };
  return jwt.sign(claims, privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    subject: user.uid,
    issuer: ctx.config.JWT_ISSUER,
    audience: ctx.config.JWT_AUDIENCE,
    expiresIn: apiToken?.expiresIn ?? ctx.config.ACCESS_TOKEN_TTL_SECONDS,
  });
}

function refreshExpiry(ctx: IdentityContext): Date {
  return new Date(Date.now() + ctx.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
}

/**
 * Starts a new session chain for a user who just proved who they are. The account is locked (shared) meanwhile: an
 * account deleted while its owner was signing in gets no session (the sign-in answers like a wrong password).
 */
export async function startSession(ctx: IdentityContext, user: Pick<User, 'uid' | 'email'>): Promise<TokenPair> {
  const refreshToken = randomToken();
  const familyId = randomUUID();
  await ctx.db.transaction(async (trx) => {
    if (!(await lockLiveUser(trx, user.uid, 'share'))) throw authError('auth/invalid-credential');
    await createFamily(trx, familyId, user.uid);
    await insertRefreshToken(trx, sha256(refreshToken), familyId, refreshExpiry(ctx));
  });
  return { idToken: await issueAccessToken(ctx, user, familyId), refreshToken, expiresIn: ctx.config.ACCESS_TOKEN_TTL_SECONDS };
}

type RefreshOutcome = { ok: true; userId: string; familyId: string; refreshToken: string } | { ok: false; reuse: boolean };

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
    return { ok: true, userId: token.userId, familyId: token.familyId, refreshToken: next };
  });
  if (!outcome.ok) {
    if (outcome.reuse) ctx.logger.warn('refresh token reused; its session chain is revoked');
    throw authError('auth/invalid-refresh-token');
  }
  const user = await findUserById(ctx.db, outcome.userId);
  if (!user) throw authError('auth/invalid-refresh-token');
  if (user.disabled) throw authError('auth/user-disabled');
  return { idToken: await issueAccessToken(ctx, user, outcome.familyId), refreshToken: outcome.refreshToken, expiresIn: ctx.config.ACCESS_TOKEN_TTL_SECONDS };
}

/** The session a refresh token proves: its chain, its owner, and when it began (the sign-in). */
export interface ProvenSession {
  familyId: string;
  userId: string;
  startedAt: Date;
}

/**
 * The live session of a presented refresh token, as proof of who asks for something only the owner may do (deleting
 * the account). Unknown, expired, spent and logged-out tokens answer auth/invalid-refresh-token; a spent one is a
 * reuse, as in refreshSession, and its whole chain is revoked. Nothing is issued.
 */
export async function provenSession(ctx: IdentityContext, presented: string): Promise<ProvenSession> {
  const token = await findTokenSession(ctx.db, sha256(presented));
  if (!token || token.familyRevokedAt || token.expiresAt.getTime() <= Date.now()) throw authError('auth/invalid-refresh-token');
  if (token.spentAt) {
    await revokeFamily(ctx.db, token.familyId, 'reuse');
    ctx.logger.warn('spent refresh token presented as proof; its session chain is revoked');
    throw authError('auth/invalid-refresh-token');
  }
  return { familyId: token.familyId, userId: token.userId, startedAt: token.startedAt };
}

/** Revokes the chain of the presented token; an unknown token is not an error (the session is gone either way). */
export async function endSession(ctx: IdentityContext, presented: string): Promise<void> {
  const familyId = await familyOfToken(ctx.db, sha256(presented));
  if (familyId) await revokeFamily(ctx.db, familyId, 'logout');
}

// Clock skew between replicas and callers: an ended session stays listed this much past its tokens' lifetime.
const REVOCATION_MARGIN_MS = 5 * 60_000;

/** How long an ended session stays in the feed: its access tokens' lifetime plus the margin. */
export function revocationWindowMs(config: Pick<IdentityContext['config'], 'ACCESS_TOKEN_TTL_SECONDS'>): number {
  return config.ACCESS_TOKEN_TTL_SECONDS * 1000 + REVOCATION_MARGIN_MS;
}

/**
 * Sessions ended (log-out, reuse, password reset, a Google link, account deletion), and personal API tokens revoked, whose access tokens may still be
 * unexpired: what identity's revocation feed lists, so every service refuses those tokens within seconds.
 */
export async function endedSessions(ctx: Pick<IdentityContext, 'db' | 'config'>): Promise<string[]> {
  const since = new Date(Date.now() - revocationWindowMs(ctx.config));
  // A revoked personal API token is listed as well: its access tokens carry its id as their sid.
  return [...(await familiesRevokedSince(ctx.db, since)), ...(await apiTokensRevokedSince(ctx.db, since))];
}
