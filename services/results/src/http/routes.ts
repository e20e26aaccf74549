import { Router, type Request } from 'express';
import { DEMO_UPLOAD_ID, deleteUploadsRequestSchema, exportQuerySchema, keptWorkViewSchema, saveKeptWorkRequestSchema, uploadDetailsQuerySchema, uploadIdSchema } from '@frametext/contracts';
import { parseBody, requireUser, requireUserId } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { deleteUploads } from '../domain/deletion.js';
import { attachmentDisposition, exportUpload } from '../domain/exports.js';
import { readKeptWork, saveKeptWork } from '../domain/kept-work.js';
import { listUploads, uploadDetails, uploadDetailsOld, uploadStatus, type Viewer } from '../domain/uploads.js';

function uploadIdParam(req: Request): string {
  return parseBody(uploadIdSchema, req.params.id, 'request/invalid-upload-id');
}

/** The demo is public (the gateway lets it through without a token); every other id needs the signed-in user. */
async function viewerFor(req: Request, uploadId: string): Promise<Viewer> {
  return uploadId === DEMO_UPLOAD_ID ? { demo: true } : { userId: await requireUserId(req) };
}

/** The results endpoints of the spec (section 7), as the gateway forwards them (paths unchanged). */
export function resultsRoutes(ctx: ResultsContext): Router {
  const router = Router();

  router.get('/checkUploadStatus/:id', async (req, res) => {
    const user = await requireUser(req);
    res.json(await uploadStatus(ctx, { userId: user.userId, token: user.token }, uploadIdParam(req)));
  });

  router.get('/getUploads', async (req, res) => {
    res.json(await listUploads(ctx, await requireUserId(req)));
  });

  router.get('/getUploadDetails/:id', async (req, res) => {
    const id = uploadIdParam(req);
    parseBody(uploadDetailsQuerySchema, req.query, 'request/invalid-query');
    res.json(await uploadDetails(ctx, await viewerFor(req, id), id));
  });

  router.get('/getUploadDetailsOld/:id', async (req, res) => {
    const id = uploadIdParam(req);
    parseBody(uploadDetailsQuerySchema, req.query, 'request/invalid-query');
    res.json(await uploadDetailsOld(ctx, await viewerFor(req, id), id));
  });

  router.post('/deleteUploads', async (req, res) => {
    const user = await requireUser(req);
    const body = parseBody(deleteUploadsRequestSchema, req.body);
    res.json(await deleteUploads(ctx, { userId: user.userId, token: user.token }, body.uploads));
  });

  // A person's work in one view of an upload; signed in only, the demo included.
  const workKey = async (req: Request) => ({
    uploadId: uploadIdParam(req),
    view: parseBody(keptWorkViewSchema, req.params.view, 'request/invalid-view'),
    userId: await requireUserId(req),
  });

  router.get('/uploads/:id/work/:view', async (req, res) => {
    res.json(await readKeptWork(ctx, await workKey(req)));
  });

  router.put('/uploads/:id/work/:view', async (req, res) => {
    const key = await workKey(req);
    res.json(await saveKeptWork(ctx, key, parseBody(saveKeptWorkRequestSchema, req.body)));
  });

  // A results view's download, for scripts: the file itself, as the app's export button saves it.
  router.get('/uploads/:id/export', async (req, res) => {
    const userId = await requireUserId(req);
    const id = uploadIdParam(req);
    const query = parseBody(exportQuerySchema, req.query, 'request/invalid-query');
    const file = await exportUpload(ctx, userId, id, query);
    // setHeader, not set: Express's set() would add a charset to types sent without one (text/vtt, application/json).
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', attachmentDisposition(file.fileName));
    res.status(200).end(Buffer.from(file.body, 'utf8'));
  });

  return router;
}
