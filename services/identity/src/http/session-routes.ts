import { Router } from 'express';
import { passwordChangeRequestSchema, type AuthSession, type ReauthenticationResponse } from '@frametext/contracts';
import { parseBody } from '@frametext/service-kit';
import type { IdentityContext } from '../domain/context.js';
import { changePassword } from '../domain/password-change.js';
import { countIpRequest } from '../domain/rate-limits.js';
import { reauthenticationFor } from '../domain/reauthentication.js';
import { signedInSession } from '../domain/session-access.js';
import { bodyOf, requireFields } from './request-bodies.js';

const ACTION = 'manage your account';

/**
 * `/api/auth` routes of a signed-in browser session (its access token): what a step only the owner may take needs
 * from it now, and changing the password.
 */
export function sessionRoutes(ctx: IdentityContext): Router {
  const router = Router();

  router.get('/reauthentication', async (req, res) => {
    const session = await signedInSession(ctx, req.header('authorization'), ACTION);
    const body: ReauthenticationResponse = {
      proof: reauthenticationFor(ctx, session.user, session.startedAt),
      recentSignInMinutes: ctx.config.RECENT_SIGN_IN_MINUTES,
    };
    res.set('cache-control', 'no-store').json(body);
  });

  router.post('/password-change', async (req, res) => {
    await countIpRequest(ctx, req.ip ?? 'unknown');
    const session = await signedInSession(ctx, req.header('authorization'), 'change the password');
    const body = bodyOf(req);
    requireFields(body, [
      ['currentPassword', 'auth/missing-password', 'Please fill in your current password.'],
      ['newPassword', 'auth/missing-password', 'Please choose a new password.'],
    ]);
    const answer: AuthSession = await changePassword(ctx, session, parseBody(passwordChangeRequestSchema, body), req.ip ?? 'unknown');
    res.set('cache-control', 'no-store').json(answer);
  });

  return router;
}
