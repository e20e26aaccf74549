import type { ErrorRequestHandler, RequestHandler } from 'express';
import { googleErrorBody } from '@frametext/contracts';
import { AppError, toErrorResponse } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';
import { CORRELATION_HEADER } from '../logging/context.js';
import { mapFrameworkError } from './app.js';

/*
 * Errors of the Google-compatible endpoints (/v1, docs/video-intelligence.md) in Google's shape,
 * `{ error: { code, message, status, details } }`, which Google's client libraries read: the same status and
 * sentence as FrameText's own shape, FrameText's code as the ErrorInfo reason. Mounted on the /v1 paths only.
 */

/** The error handler for a /v1 router or path: like finishHttpApp's, in Google's shape. */
export function googleErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const correlationId = String(res.getHeader(CORRELATION_HEADER) ?? '');
    const { status, body } = toErrorResponse(mapFrameworkError(err), correlationId || undefined);
    if (status >= 500) logger.error({ err, method: req.method, path: req.path, correlationId }, 'request failed');
    if (res.headersSent) return void res.end();
    res.status(status).json(googleErrorBody(status, body.error.code, body.error.message));
  };
}

/** The 404 of a /v1 path nothing serves, passed on to googleErrorHandler. */
export const googleNotFound: RequestHandler = (req, _res, next) => {
  next(new AppError(404, 'request/not-found', `No route for ${req.method} ${req.originalUrl.split('?')[0]}.`));
};
