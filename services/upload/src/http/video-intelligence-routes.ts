import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { ANNOTATE_BODY_LIMIT_BYTES } from '@frametext/contracts';
import { googleErrorHandler, googleNotFound, requireUser, storableTextGuard } from '@frametext/service-kit';
import { annotateVideo } from '../domain/annotate-video.js';
import type { UploadContext } from '../domain/context.js';

/** The path whose body is parsed here, with its own limit: a whole video in base64 (the app's parser stops at 1 MB). */
export const ANNOTATE_PATH = '/v1/videos:annotate';

/**
 * Google Video Intelligence's `videos:annotate` (docs/video-intelligence.md), as the gateway forwards it: signed in,
 * answered in Google's shape. Mounted at /v1, followed by videoIntelligenceErrors.
 */
export function videoIntelligenceRoutes(ctx: UploadContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });
  // A RegExp: Express reads ":annotate" in a path string as a parameter.
  // The body gets the checks every parsed body gets (depth, text that cannot be stored, forbidden keys).
  router.post(/^\/videos:annotate$/, express.json({ limit: ANNOTATE_BODY_LIMIT_BYTES }), storableTextGuard, async (req, res) => {
    const user = await requireUser(req);
    res.json(await annotateVideo(ctx, { userId: user.userId, accessToken: user.token }, req.body));
  });
  return router;
}

/**
 * Mounted at /v1 with the routes above, at the app's level: a refusal of the kit's own middleware, before any
 * route runs, is answered in Google's shape too.
 */
export const videoIntelligenceErrors = (ctx: UploadContext): [RequestHandler, ErrorRequestHandler] => [googleNotFound, googleErrorHandler(ctx.logger)];
