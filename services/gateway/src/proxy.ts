import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { AppError, CORRELATION_HEADER, TRACE_HEADERS, traceHeaders, watchBody, type BodyClock } from '@frametext/service-kit';

export interface ProxyOptions {
  /** Time a service may take to start answering before the gateway answers 504. */
  timeoutMs: number;
  /** Largest request body forwarded, checked from Content-Length and again while streaming. */
  bodyLimitBytes: number;
  /** Resolves the targets' host names; default the system's resolver. */
  lookup?: LookupFunction;
  /**
   * Send no X-Forwarded-Host. For the object store: some S3 servers check signatures against it instead of Host,
   * and presigned URLs are signed for the store's own host, never the client's.
   */
  hideClientHost?: boolean;
  /**
   * Clocks on the client's body: API calls get a total time (a trickled or stalled body must not hold two sockets
   * for minutes), uploads an idle time (they may be large and slow, but not silent). Either answers 408.
   */
  body: BodyClock;
}

export interface ProxyTarget {
  name: string;
  baseUrl: string;
  /** Path and query sent, after the base URL's path; default the request's own. */
  path?: string;
}

export interface Proxy {
  /** Streams the request to the target and its answer back; errors before the answer go to `next` as AppErrors. */
  forward(req: Request, res: Response, next: NextFunction, target: ProxyTarget): void;
  close(): void;
}

// Connection-scoped headers (RFC 9110 7.6.1) never travel through a proxy; `host` is always the target's.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
// Set by the gateway alone: a client must not choose its correlation id or its forwarding chain. Its trace context
// goes on as the gateway's own span, a child of the client's (the gateway decides what is recorded).
const GATEWAY_OWNED = new Set([CORRELATION_HEADER, ...TRACE_HEADERS, 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-real-ip']);

/** Idle time of a pooled connection to a service or the store that says nothing about its own. */
const POOL_IDLE_MS = 4_000;

export function createProxy(opts: ProxyOptions): Proxy {
  // Pooled connections are dropped before the other side closes them, or a request could go out on a connection
  // being closed (ECONNRESET, a 503 for nothing). Node shortens the pool's idle time to a server's `Keep-Alive:
  // timeout=N` hint (N - 1 s; the services say 5 s), but only below the agent's own timeout: without one it keeps
  // idle sockets forever. So the agent has one, for servers that give no hint.
  const agentOptions = { keepAlive: true, maxSockets: 256, timeout: POOL_IDLE_MS, ...(opts.lookup ? { lookup: opts.lookup } : {}) };
  const agents = {
    'http:': new http.Agent(agentOptions),
    'https:': new https.Agent(agentOptions),
  };

  return {
    forward(req, res, next, target) {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.bodyLimitBytes) {
        res.setHeader('connection', 'close');
        return next(tooLarge(opts.bodyLimitBytes));
      }

      const base = new URL(target.baseUrl);
      const protocol = base.protocol === 'https:' ? 'https:' : 'http:';
      const headers = forwardedRequestHeaders(req.headers);
      headers[CORRELATION_HEADER] = String(res.getHeader(CORRELATION_HEADER) ?? '');
      Object.assign(headers, traceHeaders());
      headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
      // req.protocol repeats a trusted proxy's X-Forwarded-Proto as it comes; only the two real answers travel on.
      headers['x-forwarded-proto'] = req.protocol === 'https' ? 'https' : 'http';
      if (req.headers.host && !opts.hideClientHost) headers['x-forwarded-host'] = req.headers.host;

      let settled = false;
      let timedOut = false;
      // Concatenated, never resolved against the base: a path like //evil.example must not change the host.
      const path = base.pathname.replace(/\/+$/, '') + (target.path ?? req.originalUrl);
      const upstream = (protocol === 'https:' ? https : http).request({
        protocol,
        hostname: base.hostname,
        port: base.port || undefined,
        method: req.method,
        path,
        headers,
        agent: agents[protocol],
      });

      const fail = (err: AppError) => {
        if (settled) return;
        settled = true;
        upstream.destroy();
        if (res.headersSent) {
          res.destroy();
          return;
        }
        next(err);
      };

      const timer = setTimeout(() => {
        timedOut = true;
        fail(new AppError(504, 'gateway/timeout', `The ${target.name} service took too long to answer. Please try again.`));
      }, opts.timeoutMs);
      res.on('close', () => {
        clearTimeout(timer);
        // The client went away: stop the work we asked for.
        if (!res.writableFinished) upstream.destroy();
      });

      upstream.on('error', (err) => {
        if (timedOut) return;
        fail(
          new AppError(503, 'gateway/service-unavailable', `The ${target.name} service is not available right now. Please try again shortly.`, {
            cause: err,
          }),
        );
      });

      upstream.on('response', (answer) => {
        if (settled) {
          answer.resume();
          return;
        }
        settled = true;
        res.writeHead(answer.statusCode ?? 502, forwardedResponseHeaders(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        answer.on('end', () => clearTimeout(timer));
      });

      const stopClock = watchBody(req, opts.body, (err) => {
        // Once the service has begun to answer, the answer stands (the server's request clock bounds the rest).
        if (settled) return;
        // The rest of the body is not worth waiting for: answer, then close the connection.
        res.setHeader('connection', 'close');
        fail(err);
      });
      res.on('close', stopClock);

      streamBody(req, upstream, opts.bodyLimitBytes, () => {
        res.setHeader('connection', 'close');
        fail(tooLarge(opts.bodyLimitBytes));
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

/** Pipes the body with back-pressure and counts it; beyond the limit, stops and calls `onTooLarge`. */
function streamBody(req: Request, upstream: http.ClientRequest, limit: number, onTooLarge: () => void): void {
  let received = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    received += chunk.length;
    if (received > limit) {
      over = true;
      onTooLarge();
      return;
    }
    if (!upstream.write(chunk)) {
      req.pause();
      upstream.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    if (!over) upstream.end();
  });
  req.on('error', () => upstream.destroy());
}

function tooLarge(limit: number): AppError {
  return new AppError(413, 'request/too-large', `The request body is too large (limit ${limit} bytes).`);
}

/** Names listed in a Connection header are hop-by-hop too. */
function connectionListed(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    joined
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

function forwardedRequestHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = connectionListed(incoming.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || GATEWAY_OWNED.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function forwardedResponseHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = connectionListed(incoming.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}
