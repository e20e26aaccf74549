import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request } from 'express';

/** Paths that belong to the server; the SPA's history fallback never answers them. */
const SERVER_PREFIXES = ['/api/', '/files/', '/health/'];

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>FrameText: web app not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web app is not built yet</h1>
<p>The gateway is running and the API answers under <code>/api</code>, but there is no built single-page app to serve.</p>
<p>Build it with <code>pnpm --filter @frametext/frontend build</code>, then reload this page.</p>
</body></html>
`;

/**
 * Serves the built SPA: hashed files under /assets cached for a year, everything else revalidated, and
 * index.html for any page address (history routing) that a browser asks for.
 */
export function spaRouter(spaDir: string): Router {
  const router = Router();
  const indexFile = path.join(spaDir, 'index.html');

  router.use(
    express.static(spaDir, {
      index: false,
      redirect: false,
      setHeaders(res, filePath) {
        const hashed = filePath.startsWith(path.join(spaDir, 'assets') + path.sep);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );

  router.use((req, res, next) => {
    if (!isPageRequest(req)) return next();
    if (!existsSync(indexFile)) {
      res.status(503).type('html').setHeader('cache-control', 'no-store');
      return void res.send(NOT_BUILT_PAGE);
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(indexFile, (err) => err && next(err));
  });

  return router;
}

function isPageRequest(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (SERVER_PREFIXES.some((p) => req.path === p.slice(0, -1) || req.path.startsWith(p))) return false;
  return req.accepts('html') === 'html';
}
