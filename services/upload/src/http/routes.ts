import { Router } from 'express';
import { parseBody, requireUser, requireUserId, requireWorkload } from '@frametext/service-kit';
import { deleteUnfinishedUploadsRequestSchema, uploadIdSchema } from '@frametext/contracts';
import type { UploadContext } from '../domain/context.js';
import { completeUpload } from '../domain/complete-upload.js';
import { deleteUnfinishedUploads } from '../domain/delete-unfinished.js';
import { logLocalUpload } from '../domain/log-local-upload.js';
import { requestUpload } from '../domain/request-upload.js';
import { settledUpload } from '../domain/settled-upload.js';

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

/**
 * Routes other services call; the gateway has no route to them. A call proves both who makes it (results' workload
 * token) and for whom (that user's own access token), so an upload is told only to its owner.
 */
export function internalRoutes(ctx: UploadContext): Router {
  const router = Router();

  router.get('/settled-uploads/:id', async (req, res) => {
    requireWorkload(req, 'upload', ['results']);
    const userId = await requireUserId(req);
    res.json(await settledUpload(ctx, userId, parseBody(uploadIdSchema, req.params.id, 'request/invalid-upload-id')));
  });

  // results' deleteUploads, for the ids it has no upload of: open uploads are cancelled here, settled ones named.
  router.post('/deleted-uploads', async (req, res) => {
    requireWorkload(req, 'upload', ['results']);
    const userId = await requireUserId(req);
    const body = parseBody(deleteUnfinishedUploadsRequestSchema, req.body);
    res.json(await deleteUnfinishedUploads(ctx, userId, body.uploadIds));
  });

  return router;
}
