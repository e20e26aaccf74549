import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, Response } from 'express';
import { AppError, CORRELATION_HEADER, USER_HEADER } from '@frametext/service-kit';

export interface ProxyOptions {
  /** Time a service may take to start answering before the gateway answers 504. */
  timeoutMs: number;
  /** Largest request body forwarded, checked from Content-Length and again while streaming. */
  bodyLimitBytes: number;
  /** Keep the client's Host header (S3 presigned URLs sign it); otherwise the target's host is sent. */
  preserveHost?: boolean;
}

export interface ProxyTarget {
  name: string;
  baseUrl: string;
}

export interface Proxy {
  /** Streams the request to the target and its answer back; errors before the answer go to `next` as AppErrors. */
  forward(req: Request, res: Response, next: NextFunction, target: ProxyTarget, userId: string | undefined): void;
  close(): void;
}

// Connection-scoped headers (RFC 9110 7.6.1) never travel through a proxy; `host` is the target's.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
// Set by the gateway alone: a client must not choose its user id or its forwarding chain.
const GATEWAY_OWNED = new Set([USER_HEADER, CORRELATION_HEADER, 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-real-ip']);

export function createProxy(opts: ProxyOptions): Proxy {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  return {
    forward(req, res, next, target, userId) {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.bodyLimitBytes) {
        res.setHeader('connection', 'close');
        return next(tooLarge(opts.bodyLimitBytes));
      }

      const base = new URL(target.baseUrl);
      const protocol = base.protocol === 'https:' ? 'https:' : 'http:';
      const headers = forwardedRequestHeaders(req.headers);
      headers[CORRELATION_HEADER] = String(res.getHeader(CORRELATION_HEADER) ?? '');
      headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
      headers['x-forwarded-proto'] = req.protocol;
      if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
      if (userId) headers[USER_HEADER] = userId;
      if (opts.preserveHost && req.headers.host) headers.host = req.headers.host;

      let settled = false;
      let timedOut = false;
      // Concatenated, never resolved against the base: a path like //evil.example must not change the host.
      const path = base.pathname.replace(/\/+$/, '') + req.originalUrl;
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
