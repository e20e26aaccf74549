import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Logger } from '../logging/logger.js';
import { CORRELATION_HEADER, USER_HEADER, runWithContext, sanitizeCorrelationId } from '../logging/context.js';
import { AppError, toErrorResponse } from '../errors/index.js';

export type ReadinessCheck = () => Promise<void>;

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Named dependency checks for /health/ready (Postgres, RabbitMQ, storage...). */
  readiness?: Record<string, ReadinessCheck>;
  bodyLimit?: string;
  /** Routes that need the raw body (webhook signatures) parse it themselves; listed here to skip JSON parsing. */
  rawBodyPaths?: string[];
  /** Set false where the JSON parser must not run at all (the gateway streams bodies through). */
  parseJson?: boolean;
}

export interface HttpApp {
  app: Express;
  /** The readiness checks; may be filled after creation. */
  readiness: Record<string, ReadinessCheck>;
  /** Marks the service as draining: readiness answers 503 so load balancers stop sending work. */
  setDraining(): void;
}

/** Express app with correlation ids, JSON parsing with a size limit, and health endpoints. Add routes, then call `finishHttpApp`. */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  let draining = false;
  const readiness: Record<string, ReadinessCheck> = { ...(opts.readiness ?? {}) };

  app.use((req: Request, res: Response, next: NextFunction) => {
    const correlationId = sanitizeCorrelationId(req.header(CORRELATION_HEADER)) ?? randomUUID();
    const userId = req.header(USER_HEADER) || undefined;
    res.setHeader(CORRELATION_HEADER, correlationId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (req.path.startsWith('/health/')) return;
      runWithContext({ correlationId }, () =>
        opts.logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, 'http request'),
      );
    });
    runWithContext({ correlationId, userId }, next);
  });

  app.get('/health/live', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  app.get('/health/ready', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ok = !draining;
    for (const [name, check] of Object.entries(readiness)) {
      try {
        await withTimeout(check(), 3_000);
        checks[name] = 'ok';
      } catch (err) {
        ok = false;
        checks[name] = err instanceof Error ? err.message : 'failed';
      }
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : draining ? 'draining' : 'unavailable', service: opts.name, checks });
  });

  if (opts.parseJson !== false) {
    const json = express.json({ limit: opts.bodyLimit ?? '1mb' });
    const raw = new Set(opts.rawBodyPaths ?? []);
    app.use((req, res, next) => (raw.has(req.path) ? next() : json(req, res, next)));
  }

  return { app, readiness, setDraining: () => void (draining = true) };
}

/** Adds the JSON 404 and the one error handler. Call after every route is registered. */
export function finishHttpApp(app: Express, logger: Logger): void {
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError(404, 'request/not-found', `No route for ${req.method} ${req.path}.`));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const correlationId = String(res.getHeader(CORRELATION_HEADER) ?? '');
    const mapped = mapFrameworkError(err);
    const { status, body } = toErrorResponse(mapped, correlationId || undefined);
    if (status >= 500) logger.error({ err, method: req.method, path: req.path, correlationId }, 'request failed');
    if (res.headersSent) return res.end();
    res.status(status).json(body);
  });
}

/** body-parser and friends throw plain errors with a `type` or `status`; turn the client's ones into AppErrors. */
function mapFrameworkError(err: unknown): unknown {
  if (err instanceof AppError || typeof err !== 'object' || err === null) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; message?: string; limit?: number };
  switch (e.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'request/malformed-json', 'The request body is not valid JSON. Check quotes, commas and brackets.');
    case 'entity.too.large':
      return new AppError(413, 'request/too-large', `The request body is too large (limit ${e.limit ?? 'exceeded'} bytes).`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'request/unsupported-encoding', 'The request body encoding is not supported; send UTF-8 JSON.');
    case 'request.aborted':
      return new AppError(400, 'request/aborted', 'The request was aborted before its body arrived.');
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(status, 'request/invalid', e.message ?? 'The request is invalid.');
  }
  return err;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections and waits for requests in hand to finish. */
  close(): Promise<void>;
}

export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({
        server,
        port: actual,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
