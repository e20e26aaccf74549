import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@frametext/service-kit';
import type { AuthSession } from '@frametext/contracts';
import type { IdentityContext } from './context.js';
import { queueAccessEndedMail } from './access-ended-mail.js';
import { endAllAccess } from './access-revocation.js';
import { createUser, completeLogin } from './accounts.js';
import { confirmAddress } from './email-confirmation.js';
import { authError } from './errors.js';
import { kickMailDelivery } from './mail-delivery.js';
import { normalizeEmail } from './passwords.js';
import { sha256 } from './sessions.js';
import type { OidcClient } from '../data/oidc-client.js';
import { insertFlow, takeFlow } from '../data/oidc-flows.js';
import { findUserByEmail, findUserByGoogleSub, linkGoogleSub, type User } from '../data/users.js';

const FLOW_TTL_MS = 10 * 60_000;

function requireGoogle(ctx: IdentityContext): OidcClient {
  if (!ctx.google) throw authError('auth/provider-disabled', 'Google sign-in is not enabled on this server.');
  return ctx.google;
}

/** Starts an authorization-code flow with PKCE: the verifier and nonce stay server-side, keyed by the state. */
export async function startGoogleSignIn(ctx: IdentityContext): Promise<string> {
  const google = requireGoogle(ctx);
  const state = randomBytes(32).toString('base64url');
  const nonce = randomBytes(32).toString('base64url');
  const codeVerifier = randomBytes(48).toString('base64url');
  const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
  await insertFlow(ctx.db, sha256(state), { provider: 'google', nonce, codeVerifier, expiresAt: new Date(Date.now() + FLOW_TTL_MS) });
  try {
    return await google.authorizationUrl({ state, nonce, codeChallenge });
  } catch (err) {
    ctx.logger.error({ err }, 'Google discovery failed');
    throw authError('auth/oauth-failed');
  }
}

/** Where the browser goes after the callback: the SPA's /login with the session (or the error) in the fragment. */
export async function finishGoogleSignIn(ctx: IdentityContext, query: { code?: string; state?: string; error?: string }): Promise<string> {
  requireGoogle(ctx);
  try {
    const session = await redeem(ctx, query);
    return loginRedirect(ctx, {
      idToken: session.idToken,
      refreshToken: session.refreshToken,
      expiresIn: String(session.expiresIn),
      firstLogin: String(session.user.firstLogin),
    });
  } catch (err) {
    const appErr = err instanceof AppError ? err : authError('auth/oauth-failed');
    if (!(err instanceof AppError)) ctx.logger.warn({ err }, 'Google sign-in failed');
    return loginRedirect(ctx, { error: appErr.code, message: appErr.message });
  }
}

async function redeem(ctx: IdentityContext, query: { code?: string; state?: string; error?: string }): Promise<AuthSession> {
  const google = requireGoogle(ctx);
  const flow = query.state ? await takeFlow(ctx.db, sha256(query.state)) : undefined;
  if (!flow || flow.provider !== 'google' || flow.expiresAt.getTime() <= Date.now()) throw authError('auth/invalid-oauth-state');
  if (query.error || !query.code) throw authError('auth/oauth-failed', 'Google sign-in was cancelled or refused. Please try again.');
  let identity;
  try {
    identity = await google.redeemCode(query.code, flow.codeVerifier);
  } catch (err) {
    ctx.logger.warn({ err }, 'Google code exchange or id_token verification failed');
    throw authError('auth/oauth-failed');
  }
  if (identity.nonce !== flow.nonce) {
    ctx.logger.warn('Google id_token nonce does not match the flow');
    throw authError('auth/oauth-failed');
  }
  if (!identity.emailVerified) throw authError('auth/email-not-verified');
  const user = await findOrCreateGoogleUser(ctx, identity.sub, normalizeEmail(identity.email));
  if (user.disabled) throw authError('auth/user-disabled');
  return completeLogin(ctx, user);
}

/** Same Google subject: that user. Same verified e-mail: link it. Otherwise a new account (with user.created.v1). */
async function findOrCreateGoogleUser(ctx: IdentityContext, sub: string, email: string): Promise<User> {
  const bySub = await findUserByGoogleSub(ctx.db, sub);
  if (bySub) return bySub;
  const byEmail = await findUserByEmail(ctx.db, email);
  if (byEmail) {
    if (byEmail.googleSub && byEmail.googleSub !== sub) throw authError('auth/account-exists-with-different-credential');
    // Nobody had proven this address before Google did: a password set on it may be someone else's
    // (account pre-hijacking), so linking drops it and ends every session and API token made with it. A reset sets
    // a new one.
    const ended = await ctx.db.transaction(async (trx) => {
      await linkGoogleSub(trx, byEmail.uid, sub);
      // Google proved the address: the free credits follow, if the mailed link had not proven it already.
      await confirmAddress(trx, byEmail.uid);
      await queueAccessEndedMail(trx, ctx, byEmail.email, 'google-link');
      return endAllAccess(trx, byEmail.uid, 'google-link');
    });
    ctx.logger.info({ userId: byEmail.uid, ...ended }, 'Google linked: every session and API token ended');
    kickMailDelivery(ctx);
    return { ...byEmail, googleSub: sub, passwordHash: null, emailConfirmedAt: byEmail.emailConfirmedAt ?? new Date() };
  }
  const created = await createUser(ctx, { email, passwordHash: null, googleSub: sub });
  if (created) return created;
  // A concurrent callback created it first.
  const raced = (await findUserByGoogleSub(ctx.db, sub)) ?? (await findUserByEmail(ctx.db, email));
  if (!raced) throw authError('auth/oauth-failed');
  return raced;
}

function loginRedirect(ctx: IdentityContext, fields: Record<string, string>): string {
  return `${ctx.config.APP_URL.replace(/\/+$/, '')}/login#${new URLSearchParams(fields).toString()}`;
}
