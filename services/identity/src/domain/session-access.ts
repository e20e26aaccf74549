import jwt from 'jsonwebtoken';
import { looksLikeApiToken } from '@frametext/contracts';
import { AppError } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { findLiveFamily } from '../data/sessions.js';
import { findUserById, type User } from '../data/users.js';

/*
 * Managing personal API tokens and changing the password need a signed-in session: the access token the SPA holds,
 * checked here against identity's own keys and its own table of sessions (no feed delay). A personal token, or an
 * access token exchanged for one, never passes: a token can neither mint tokens nor manage the account.
 */

const sessionRequired = (message: string) => new AppError(401, 'auth/session-required', message);
const SIGN_IN_AGAIN = 'Your session has expired or was signed out. Please log in again.';

/** A live browser session: its owner, its chain and when it began (the sign-in). */
export interface SignedInSession {
  user: User;
  familyId: string;
  startedAt: Date;
}

/** The account whose live session sent `authorization` (Bearer access token); 401 otherwise. */
export async function sessionOwner(ctx: IdentityContext, authorization: string | undefined): Promise<User> {
  return (await signedInSession(ctx, authorization)).user;
}

/**
 * The live session that sent `authorization` (Bearer access token); 401 otherwise, whose message names `action`
 * (what the caller came to do, "manage API tokens").
 */
export async function signedInSession(ctx: IdentityContext, authorization: string | undefined, action = 'manage API tokens'): Promise<SignedInSession> {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '');
  if (!match) throw sessionRequired(`Please sign in to ${action}.`);
  const token = match[1]!;
  const notByToken = `API tokens cannot ${action}. Sign in to FrameText in a browser to do this.`;
  if (looksLikeApiToken(token)) throw sessionRequired(notByToken);

  const decoded = jwt.decode(token, { complete: true });
  const kid = decoded?.header.kid;
  const key = kid && decoded.header.alg === 'RS256' ? await ctx.keys.publishedKey(kid) : undefined;
  if (!key) throw sessionRequired(SIGN_IN_AGAIN);
  let claims: jwt.JwtPayload | string;
  try {
    claims = jwt.verify(token, key, { algorithms: ['RS256'], issuer: ctx.config.JWT_ISSUER, audience: ctx.config.JWT_AUDIENCE });
  } catch {
    throw sessionRequired(SIGN_IN_AGAIN);
  }
  if (typeof claims === 'string' || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') throw sessionRequired(SIGN_IN_AGAIN);
  if (claims.scope !== undefined) throw sessionRequired(notByToken);
  const family = await findLiveFamily(ctx.db, claims.sid);
  if (!family || family.userId !== claims.sub) throw sessionRequired(SIGN_IN_AGAIN);
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) throw sessionRequired(SIGN_IN_AGAIN);
  if (user.disabled) throw new AppError(403, 'auth/user-disabled', 'Your account has been disabled.');
  return { user, familyId: claims.sid, startedAt: family.startedAt };
}
