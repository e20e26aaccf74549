import { Router } from 'express';
import { emailConfirmRequestSchema, type EmailConfirmationStatus } from '@frametext/contracts';
import { parseBody } from '@frametext/service-kit';
import type { IdentityContext } from '../domain/context.js';
import { confirmEmail, confirmationStatus, resendConfirmation } from '../domain/email-confirmation.js';
import { countIpRequest } from '../domain/rate-limits.js';
import { signedInSession } from '../domain/session-access.js';
import { bodyOf, requireFields } from './request-bodies.js';

const ACTION = 'confirm your e-mail address';

/**
 * `/api/auth/email-confirmation`: where the signed-in account stands and a new link (a session's access token), and
 * the link's own call, which needs no sign-in (the token in it is the proof).
 */
export function emailConfirmationRoutes(ctx: IdentityContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });

  router.get('/', async (req, res) => {
    const { user } = await signedInSession(ctx, req.header('authorization'), ACTION);
    const body: EmailConfirmationStatus = confirmationStatus(user);
    res.json(body);
  });

  router.post('/', async (req, res) => {
    await countIpRequest(ctx, req.ip ?? 'unknown');
    const { user } = await signedInSession(ctx, req.header('authorization'), ACTION);
    await resendConfirmation(ctx, user);
    res.status(204).end();
  });

  router.post('/confirm', async (req, res) => {
    await countIpRequest(ctx, req.ip ?? 'unknown');
    const body = bodyOf(req);
    requireFields(body, [['token', 'auth/missing-confirmation-token']]);
    const answer: EmailConfirmationStatus = await confirmEmail(ctx, parseBody(emailConfirmRequestSchema, body).token);
    res.json(answer);
  });

  return router;
}
