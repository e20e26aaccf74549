import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  API_TOKENS_PER_USER,
  type ApiToken,
  type CreateApiTokenRequest,
  type CreateApiTokenResponse,
  type ExchangeApiTokenResponse,
  type ListApiTokensResponse,
} from '@frametext/contracts';
import { AppError } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { checkOwnerPassword, reauthenticationFor } from './reauthentication.js';
import type { SignedInSession } from './session-access.js';
import { sha256 } from './sessions.js';
import { issueAccessToken } from './sessions.js';
import {
  countLiveApiTokens,
  findApiToken,
  insertApiToken,
  liveApiTokensOf,
  revokeApiToken,
  touchApiToken,
  type ApiTokenRow,
} from '../data/api-tokens.js';
import { isFamilyLive } from '../data/sessions.js';
import { findUserById, lockLiveUser, type User } from '../data/users.js';

/*
 * Personal API tokens: a person creates them on the Account page (with a session and their password, never with
 * another token), names them and picks a scope; the text is shown once and only the SHA-256 of its secret is kept.
 * A token lives until revoked, so a copied access token alone (10 minutes) must not make one. The gateway exchanges
 * a token here for a short-lived access token (sid = the token's id, claim scope), which every service verifies as it
 * verifies a session's. Revoking one lists it in the feed of ended sessions.
 */

/**
 * Lifetime of an access token exchanged for a personal token. It never leaves the gateway and the services (the
 * gateway forwards it in place of the personal token), and the gateway keeps it only seconds; this bounds a copy
 * that leaked from a service's logs.
 */
export const EXCHANGED_TOKEN_TTL_SECONDS = 120;

export const invalidApiToken = () => new AppError(401, 'auth/api-token-invalid', 'This API token was revoked or does not exist.');

const uuidOfHex = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

function view(row: ApiTokenRow): ApiToken {
  return { id: row.id, name: row.name, scope: row.scope, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

const passwordRequired = () =>
  new AppError(401, 'auth/password-required', 'Enter your password to create an API token (a script sends it as "password" with the name and scope).');

/**
 * Creating a token is the owner's step (reauthentication.ts): an account with a password gives it (401 when it is
 * missing or wrong, with the log-in rate limits); a Google-only account needs a sign-in from the last few minutes.
 */
async function assertOwnerPresent(ctx: IdentityContext, session: SignedInSession, password: string | undefined, address: string): Promise<void> {
  const needs = reauthenticationFor(ctx, session.user, session.startedAt);
  if (needs === 'password') {
    if (!password) throw passwordRequired();
    await checkOwnerPassword(ctx, session.user, password, address, 'That is not your password. Enter the password you sign in with to create an API token.');
  } else if (needs === 'sign-in-again') {
    const minutes = ctx.config.RECENT_SIGN_IN_MINUTES;
    throw authError(
      'auth/requires-recent-login',
      `For your safety, creating an API token on an account that signs in with Google needs a sign-in from the last ${minutes} minutes. Please sign in again, then create it.`,
    );
  }
}

/**
 * Creates a token for the session's owner (at most API_TOKENS_PER_USER live ones) once they proved it is them
 * (`address`: the client's IP, for the password's rate limits); the answer holds its text, shown this once.
 */
export async function createApiToken(ctx: IdentityContext, session: SignedInSession, input: CreateApiTokenRequest, address: string): Promise<CreateApiTokenResponse> {
  await assertOwnerPresent(ctx, session, input.password, address);
  const { user } = session;
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  const row = await ctx.db.transaction(async (trx) => {
    // The account row is locked so two creations at once cannot both pass the limit, a deleted account gets none,
    // and a password change, reset or Google link (each locks it too) either ends this session first or revokes
    // this token after.
    const live = (await lockLiveUser(trx, user.uid, 'update')) && (await isFamilyLive(trx, session.familyId));
    if (!live) throw new AppError(401, 'auth/session-required', 'Your session has expired or was signed out. Please log in again.');
    if ((await countLiveApiTokens(trx, user.uid)) >= API_TOKENS_PER_USER) {
      throw new AppError(
        409,
        'auth/too-many-api-tokens',
        `You already have ${API_TOKENS_PER_USER} API tokens, the most an account may hold. Revoke one you no longer use, then create this one.`,
      );
    }
    return insertApiToken(trx, { id, userId: user.uid, name: input.name, scope: input.scope, secretHash: sha256(secret) });
  });
  ctx.logger.info({ userId: user.uid, apiTokenId: id, scope: input.scope }, 'API token created');
  return { token: `${API_TOKEN_PREFIX}${id.replace(/-/g, '')}_${secret}`, apiToken: view(row) };
}

export async function listApiTokens(ctx: IdentityContext, user: User): Promise<ListApiTokensResponse> {
  return { tokens: (await liveApiTokensOf(ctx.db, user.uid)).map(view), limit: API_TOKENS_PER_USER };
}

/** Revokes one of `user`'s tokens: the gateway and every service refuse it within seconds (docs/security.md). */
export async function revokeApiTokenOf(ctx: IdentityContext, user: User, id: string): Promise<void> {
  if (!(await revokeApiToken(ctx.db, user.uid, id))) {
    throw new AppError(404, 'auth/api-token-not-found', 'There is no such API token on your account; it may have been revoked already.');
  }
  ctx.logger.info({ userId: user.uid, apiTokenId: id }, 'API token revoked');
}

/** The live token `presented` stands for, and its owner; 401 for anything else (malformed, unknown, wrong secret, revoked). */
async function liveToken(ctx: IdentityContext, presented: string): Promise<{ token: ApiTokenRow; user: User }> {
  const match = API_TOKEN_PATTERN.exec(presented);
  if (!match) throw invalidApiToken();
  const token = await findApiToken(ctx.db, uuidOfHex(match[1]!));
  if (!token || token.revokedAt) throw invalidApiToken();
  const expected = Buffer.from(token.secretHash, 'hex');
  const given = Buffer.from(sha256(match[2]!), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidApiToken();
  const user = await findUserById(ctx.db, token.userId);
  if (!user) throw invalidApiToken();
  if (user.disabled) throw new AppError(403, 'auth/user-disabled', 'Your account has been disabled.');
  return { token, user };
}

/** The gateway's exchange: a live personal token for a short-lived access token carrying its owner, id and scope. */
export async function exchangeApiToken(ctx: IdentityContext, presented: string): Promise<ExchangeApiTokenResponse> {
  const { token, user } = await liveToken(ctx, presented);
  await touchApiToken(ctx.db, token.id);
  const accessToken = await issueAccessToken(ctx, user, token.id, { scope: token.scope, expiresIn: EXCHANGED_TOKEN_TTL_SECONDS });
  return { accessToken, expiresIn: EXCHANGED_TOKEN_TTL_SECONDS, tokenId: token.id, userId: user.uid, scope: token.scope };
}
