import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { uploadIdSchema } from '@frametext/contracts';
import { googleErrorHandler, googleNotFound, parseBody, requireUser } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { annotationOperation } from '../domain/video-annotation.js';

/**
 * Google Video Intelligence's operations (docs/video-intelligence.md), as the gateway forwards them: `GET
 * /v1/{name}` and its other binding `/v1/operations/{name}`, with name `projects/-/locations/-/operations/<upload id>`.
 * Answered in Google's shape. Mounted at /v1, followed by videoIntelligenceErrors.
 */
export function videoIntelligenceRoutes(ctx: ResultsContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });
  const operation = async (req: Request, res: Response) => {
    const user = await requireUser(req);
    const id = parseBody(uploadIdSchema, req.params.id, 'request/invalid-upload-id');
    const numericEnums = /enum-encoding=int/.test(String(req.query.$alt ?? ''));
    res.json(await annotationOperation(ctx, { userId: user.userId, token: user.token }, id, numericEnums));
  };
  router.get('/projects/-/locations/-/operations/:id', operation);
  router.get('/operations/projects/-/locations/-/operations/:id', operation);
  return router;
}

/**
 * Mounted at /v1 with the routes above, at the app's level: a refusal of the kit's own middleware (a body on a GET
 * that is not JSON, text that cannot be stored), before any route runs, is answered in Google's shape too.
 */
export const videoIntelligenceErrors = (ctx: ResultsContext): [RequestHandler, ErrorRequestHandler] => [googleNotFound, googleErrorHandler(ctx.logger)];
