import { Router } from 'express';
import { requireUser, requireUserId } from '@frametext/service-kit';
import type { UploadContext } from '../domain/context.js';
import { completeUpload } from '../domain/complete-upload.js';
import { logLocalUpload } from '../domain/log-local-upload.js';
import { requestUpload } from '../domain/request-upload.js';

/** The upload endpoints, as the gateway forwards them: signed-in only, each checking the user's own token. */
export function uploadRoutes(ctx: UploadContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });

  router.post('/getUploadURL', async (req, res) => {
    const user = await requireUser(req);
    res.json(await requestUpload(ctx, { userId: user.userId, accessToken: user.token }, req.body));
  });

  router.post('/uploadComplete', async (req, res) => {
    res.json(await completeUpload(ctx, await requireUserId(req), req.body));
  });

  router.post('/logLocalUpload', async (req, res) => {
    const user = await requireUser(req);
    res.json(await logLocalUpload(ctx, { userId: user.userId, accessToken: user.token }, req.body));
  });

  return router;
}
