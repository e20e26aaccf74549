import { Router, type Request } from 'express';
import { DEMO_UPLOAD_ID, deleteUploadsRequestSchema, uploadDetailsQuerySchema, uploadIdSchema } from '@frametext/contracts';
import { parseBody, requireUserId } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { deleteUploads, listUploads, uploadDetails, uploadDetailsOld, uploadStatus, type Viewer } from '../domain/uploads.js';

function uploadIdParam(req: Request): string {
  return parseBody(uploadIdSchema, req.params.id, 'request/invalid-upload-id');
}

/** The demo is public (the gateway lets it through without a token); every other id needs the signed-in user. */
function viewerFor(req: Request, uploadId: string): Viewer {
  return uploadId === DEMO_UPLOAD_ID ? { demo: true } : { userId: requireUserId(req) };
}

/** The results endpoints of the spec (section 7), as the gateway forwards them (paths unchanged). */
export function resultsRoutes(ctx: ResultsContext): Router {
  const router = Router();

  router.get('/checkUploadStatus/:id', async (req, res) => {
    const userId = requireUserId(req);
    res.json(await uploadStatus(ctx, userId, uploadIdParam(req)));
  });

  router.get('/getUploads', async (req, res) => {
    res.json(await listUploads(ctx, requireUserId(req)));
  });

  router.get('/getUploadDetails/:id', async (req, res) => {
    const id = uploadIdParam(req);
    parseBody(uploadDetailsQuerySchema, req.query, 'request/invalid-query');
    res.json(await uploadDetails(ctx, viewerFor(req, id), id));
  });

  router.get('/getUploadDetailsOld/:id', async (req, res) => {
    const id = uploadIdParam(req);
    parseBody(uploadDetailsQuerySchema, req.query, 'request/invalid-query');
    res.json(await uploadDetailsOld(ctx, viewerFor(req, id), id));
  });

  router.post('/deleteUploads', async (req, res) => {
    const userId = requireUserId(req);
    const body = parseBody(deleteUploadsRequestSchema, req.body);
    res.json(await deleteUploads(ctx, userId, body.uploads));
  });

  return router;
}
