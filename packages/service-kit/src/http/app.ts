import { context, INVALID_SPAN_CONTEXT, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import { isIP, type Socket } from 'node:net';
import type { Logger } from '../logging/logger.js';
import { CORRELATION_HEADER, runWithContext, sanitizeCorrelationId } from '../logging/context.js';
import { AppError, toErrorResponse } from '../errors/index.js';
import { storableTextGuard } from './storable-text.js';
import type { ServiceMetrics } from '../metrics/definitions.js';
import { contextFrom } from '../tracing/tracing.js';

export type ReadinessCheck = () => Promise<void>;

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  /** Named dependency checks for /health/ready (Postgres, RabbitMQ, storage...). */
  readiness?: Record<string, ReadinessCheck>;
  /** Checks /health/ready reports without failing on them: what the service's requests do not need. */
  reported?: Record<string, ReadinessCheck>;
  bodyLimit?: string;
  /** Routes that need the raw body (webhook signatures) parse it themselves; listed here to skip JSON parsing. */
  rawBodyPaths?: string[];
  /** Set false where the JSON parser must not run at all (the gateway streams bodies through). */
  parseJson?: boolean;
  /** Requests are counted and timed by route template and status class. */
  metrics?: Pick<ServiceMetrics, 'httpRequests' | 'httpDuration'>;
  /** Each request is a server span, child of the caller's `traceparent`; without a tracer, only ids travel on. */
  tracer?: Tracer;
}

export interface HttpApp {
  app: Express;
  /** The readiness checks; may be filled after creation. */
  readiness: Record<string, ReadinessCheck>;
  /** Checks reported beside them that do not make the service unready; may be filled after creation. */
  reported: Record<string, ReadinessCheck>;
  /** Marks the service as draining: readiness answers 503 so load balancers stop sending work. */
  setDraining(): void;
}

/**
 * A request's route as declared (`/api/getUploadDetails/:id`), never the raw path, so labels stay few. A handler that
 * dispatches by a table of its own rather than Express routes (the gateway) names it in `res.locals.route`.
 */
function routeTemplate(req: Request, res: Response): string {
  const named: unknown = res.locals.route;
  if (typeof named === 'string') return named;
  const status = res.statusCode;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  return status === 404 ? 'unmatched' : 'other';
}

/**
 * Express app with correlation ids, JSON parsing with a size limit, health endpoints, and the guard that refuses
 * text Postgres cannot store (in the path, the query and a parsed body) before any route runs. Add routes, then
 * call `finishHttpApp`.
 */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  onlyAddressesAsClientIp(app);
  let draining = false;
  const readiness: Record<string, ReadinessCheck> = { ...(opts.readiness ?? {}) };
  const reported: Record<string, ReadinessCheck> = { ...(opts.reported ?? {}) };

  const tracer = opts.tracer ?? trace.getTracer(opts.name);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const probe = req.path.startsWith('/health/');
    const callerContext = contextFrom(req.headers);
    // Probes come every few seconds and say nothing about a user's work: they get no span.
    const span = probe ? trace.wrapSpanContext(INVALID_SPAN_CONTEXT) : tracer.startSpan(req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, callerContext);
    const ids = span.spanContext();
    // A request that names no correlation id gets its trace id, so the reference a user quotes finds the trace too.
    const correlationId = sanitizeCorrelationId(req.header(CORRELATION_HEADER)) ?? (isSpanContextValid(ids) ? ids.traceId : randomUUID());
    res.setHeader(CORRELATION_HEADER, correlationId);
    const started = process.hrtime.bigint();
    res.on('close', () => {
      if (res.writableFinished) return;
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client went away before the answer' });
      span.end();
    });
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeTemplate(req, res);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      if (probe) return;
      if (opts.metrics) {
        opts.metrics.httpRequests.inc({ method: req.method, route, status_class: `${Math.floor(res.statusCode / 100)}xx` });
        opts.metrics.httpDuration.observe({ method: req.method, route }, ms / 1000);
      }
      runWithContext({ correlationId }, () =>
        opts.logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms), traceId: ids.traceId }, 'http request'),
      );
    });
    context.with(trace.setSpan(callerContext, span), () => runWithContext({ correlationId }, next));
  });

  app.get('/health/live', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  app.get('/health/ready', async (_req, res) => {
    let ok = !draining;
    const run = async ([name, check]: [string, ReadinessCheck], required: boolean): Promise<[string, string]> => {
      try {
        await withTimeout(check(), 3_000);
        return [name, 'ok'];
      } catch (err) {
        if (required) ok = false;
        return [name, err instanceof Error ? err.message : 'failed'];
      }
    };
    // Asked together, listed in a fixed order: the required checks, then those only reported.
    const checks = Object.fromEntries(await Promise.all([...Object.entries(readiness).map((c) => run(c, true)), ...Object.entries(reported).map((c) => run(c, false))]));
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : draining ? 'draining' : 'unavailable', service: opts.name, checks });
  });

  if (opts.parseJson !== false) {
    const json = express.json({ limit: opts.bodyLimit ?? '1mb' });
    const raw = new Set(opts.rawBodyPaths ?? []);
    app.use((req, res, next) => (raw.has(req.path) ? next() : json(req, res, next)));
  }
  app.use(storableTextGuard);

  return { app, readiness, reported, setDraining: () => void (draining = true) };
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
export function mapFrameworkError(err: unknown): unknown {
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

/**
 * `req.ip` is the first untrusted address of X-Forwarded-For, and Express takes that entry as it comes: a client
 * behind a trusted proxy could name itself `anything at all` (16 KB of it), which then lands in rate-limit keys
 * and logs. Here an entry that is not an IP address is not believed: the socket's address is used instead.
 */
function onlyAddressesAsClientIp(app: Express): void {
  const forwarded = Object.getOwnPropertyDescriptor(express.request, 'ip')?.get;
  if (!forwarded) return;
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    enumerable: true,
    get(this: Request) {
      const ip: unknown = forwarded.call(this);
      return typeof ip === 'string' && isIP(ip) ? ip : this.socket.remoteAddress;
    },
  });
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

/** The Node server's own clocks (see `serverTimeouts` for the settings that fill them). */
export interface ServerTimeouts {
  /** Longest a client may take to send the request line and headers (slow-header attacks); then 408. */
  headersTimeoutMs: number;
  /** Longest a client may take to send a whole request, headers and body; 0 turns it off. Then 408. */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 15_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 };

export function listen(app: Express, port: number, host = '127.0.0.1', timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS): Promise<RunningServer> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = timeouts;
  // Node checks both request clocks on an interval; a fraction of the shorter one keeps them close to their value.
  const shortest = Math.min(headersTimeoutMs, requestTimeoutMs > 0 ? requestTimeoutMs : headersTimeoutMs);
  const server = createServer(
    {
      headersTimeout: requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, Math.floor(shortest / 4))),
    },
    app,
  );
  server.on('clientError', answerClientError);
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

/**
 * Requests Node refuses before Express sees them (malformed HTTP, headers too large, the clocks above) get the same
 * JSON error body as every other answer, instead of Node's bare status line.
 */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // Node's own rule: answer only when nothing of a response has been written on this connection yet.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] = clientErrorAnswer(err.code);
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function clientErrorAnswer(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'request/headers-too-large', 'The request headers are too large; send a shorter address or fewer and smaller headers.'];
    case 'HPE_INVALID_EOF_STATE':
      return [400, 'request/incomplete', 'The request ended before its body was complete: send as many bytes as Content-Length says.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request/timeout', 'The request did not arrive in time; send it again in one go.'];
    default:
      return [400, 'request/malformed', 'The request is not valid HTTP/1.1 (its request line, headers or chunked body).'];
  }
}
