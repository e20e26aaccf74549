import { Router, type NextFunction, type Request, type Response } from 'express';
import { parseBody, requireWorkload } from '@frametext/service-kit';
import {
  deleteAccountProofRequestSchema,
  deleteAccountRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestSchema,
  refreshRequestSchema,
  signupRequestSchema,
  type DeleteAccountProofResponse,
  type ProvidersResponse,
  type RevocationsResponse,
} from '@frametext/contracts';
import type { IdentityContext } from '../domain/context.js';
import { bodyOf, requireFields } from './request-bodies.js';
import { deleteAccount, deletionProof } from '../domain/account-deletion.js';
import { logIn, signUp } from '../domain/accounts.js';
import { finishGoogleSignIn, startGoogleSignIn } from '../domain/google.js';
import { confirmPasswordReset, requestPasswordReset } from '../domain/password-reset.js';
import { countIpRequest } from '../domain/rate-limits.js';
import { endSession, endedSessions, refreshSession } from '../domain/sessions.js';

const MISSING_EMAIL_ON_RESET = 'Please fill in your email and click "Forgot password" again.';

export function authRoutes(ctx: IdentityContext): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (req.method === 'POST') res.set('cache-control', 'no-store');
    next();
  });

  const limitByIp = async (req: Request, _res: Response, next: NextFunction) => {
    await countIpRequest(ctx, req.ip ?? 'unknown');
    next();
  };

  router.get('/jwks.json', async (_req, res) => {
    res.set('cache-control', 'public, max-age=300').json(await ctx.keys.jwks());
  });

  router.get('/providers', (_req, res) => {
    const body: ProvidersResponse = { password: true, google: Boolean(ctx.google) };
    res.json(body);
  });

  router.post('/signup', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['email', 'auth/missing-email'], ['password', 'auth/missing-password']]);
    res.status(201).json(await signUp(ctx, parseBody(signupRequestSchema, body)));
  });

  router.post('/login', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['email', 'auth/missing-email'], ['password', 'auth/missing-password']]);
    res.json(await logIn(ctx, parseBody(loginRequestSchema, body), req.ip ?? 'unknown'));
  });

  router.post('/refresh', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['refreshToken', 'auth/missing-refresh-token']]);
    res.json(await refreshSession(ctx, parseBody(refreshRequestSchema, body).refreshToken));
  });

  router.post('/logout', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['refreshToken', 'auth/missing-refresh-token']]);
    await endSession(ctx, parseBody(logoutRequestSchema, body).refreshToken);
    res.status(204).end();
  });

  router.post('/delete-account', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['refreshToken', 'auth/missing-refresh-token']]);
    await deleteAccount(ctx, parseBody(deleteAccountRequestSchema, body), req.ip ?? 'unknown');
    res.status(204).end();
  });

  router.post('/delete-account/proof', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['refreshToken', 'auth/missing-refresh-token']]);
    const answer: DeleteAccountProofResponse = await deletionProof(ctx, parseBody(deleteAccountProofRequestSchema, body).refreshToken);
    res.json(answer);
  });

  router.post('/password-reset', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['email', 'auth/missing-email', MISSING_EMAIL_ON_RESET]]);
    await requestPasswordReset(ctx, parseBody(passwordResetRequestSchema, body).email);
    res.status(204).end();
  });

  router.post('/password-reset/confirm', limitByIp, async (req, res) => {
    const body = bodyOf(req);
    requireFields(body, [['token', 'auth/missing-reset-token'], ['password', 'auth/missing-password']]);
    await confirmPasswordReset(ctx, parseBody(passwordResetConfirmRequestSchema, body));
    res.status(204).end();
  });

  router.get('/google/start', limitByIp, async (_req, res) => {
    res.redirect(302, await startGoogleSignIn(ctx));
  });

  router.get('/google/callback', limitByIp, async (req, res) => {
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const target = await finishGoogleSignIn(ctx, { code: text(req.query.code), state: text(req.query.state), error: text(req.query.error) });
    res.set('cache-control', 'no-store').redirect(302, target);
  });

  return router;
}

/** Routes for the other services only (a workload token for `identity`); the gateway has no route to them. */
export function internalRoutes(ctx: IdentityContext): Router {
  const router = Router();

  router.get('/revocations', async (req, res) => {
    requireWorkload(req, 'identity');
    const body: RevocationsResponse = { sessions: await endedSessions(ctx) };
    res.set('cache-control', 'no-store').json(body);
  });

  return router;
}
