import type { RequestHandler } from 'express';
import { CORRELATION_HEADER } from '@frametext/service-kit';

/** Cross-origin access for exactly the listed origins; everything else gets no CORS headers at all. */
export function corsFor(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    if (!origin || !allowed.has(origin)) return next();
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-expose-headers', CORRELATION_HEADER);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('access-control-allow-methods', 'GET, HEAD, POST, PUT, PATCH, DELETE');
      res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? 'authorization, content-type');
      res.setHeader('access-control-max-age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
