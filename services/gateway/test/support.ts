import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicPem: string;
  jwk: Record<string, unknown>;
}

export function makeKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    kid,
    privateKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
  };
}

export interface TokenClaims {
  sub?: string;
  aud?: string;
  iss?: string;
  exp?: number;
}

export function signToken(key: SigningKey, claims: TokenClaims = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign({ sub: 'user-1', aud: 'frametext', iss: 'frametext-identity', iat: now, exp: now + 300, ...claims }, key.privateKey, {
    algorithm: 'RS256',
    keyid: key.kid,
  });
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A token whose header and payload are written by hand, with any signature: for the forgeries. */
export function forgeToken(header: Record<string, unknown>, payload: Record<string, unknown>, sign: (input: string) => string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}

export const hmacWith = (secret: string) => (input: string) => createHmac('sha256', secret).update(input).digest('base64url');

export function validClaims(sub = 'user-1'): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return { sub, aud: 'frametext', iss: 'frametext-identity', iat: now, exp: now + 300 };
}

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A stand-in for a service: records what it receives, answers /health/ready by its `ready` flag, echoes otherwise. */
export class FakeService {
  readonly seen: Seen[] = [];
  ready = true;
  handler: Handler | undefined;
  private server: http.Server | undefined;
  port = 0;

  constructor(readonly name: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get last(): Seen {
    const s = this.seen.at(-1);
    if (!s) throw new Error(`${this.name} received nothing`);
    return s;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.url === '/health/ready') {
          const ok = this.ready;
          return json(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', service: this.name, checks: { postgres: ok ? 'ok' : 'connection refused' } });
        }
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (this.handler) return this.handler(req, res, body);
        json(res, 200, { service: this.name, userId: req.headers['x-user-id'] ?? null });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Serves a JWKS and counts how often it is fetched. */
export async function startJwks(keys: SigningKey[]): Promise<{ url: string; fetches: () => number; close: () => Promise<void> }> {
  let fetches = 0;
  const server = http.createServer((req, res) => {
    fetches++;
    if (req.url !== '/jwks.json') return json(res, 404, {});
    json(res, 200, { keys: keys.map((k) => k.jwk) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends a request with node:http (fetch cannot stream a chunked body of our choosing or set Content-Length). */
export function rawRequest(
  url: string,
  opts: { method: string; headers?: Record<string, string>; chunks?: Buffer[] },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method, headers: opts.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    // The gateway may answer 413 and close before the whole body is written; the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 200));
    const write = async () => {
      for (const c of opts.chunks ?? []) {
        if (req.destroyed) return;
        if (!req.write(c)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    };
    void write();
  });
}
