import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { BUILT_IN_SECRETS, WorkloadCredentials } from '@frametext/service-kit';

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
  sid?: string;
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
        json(res, 200, { service: this.name, authorization: req.headers.authorization ?? null });
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

export interface Identity {
  /** The JWKS URL. */
  url: string;
  /** The feed of ended sessions. */
  revocationsUrl: string;
  fetches: () => number;
  /** Ends a session: the feed lists it from now on. */
  revoke(sessionId: string): void;
  /** Answers the feed with this status from now on (500 to make it fail, 200 to mend it). */
  feedStatus: number;
  /** Requests of the feed answered with another status than 200. */
  feedFailures: () => number;
  close: () => Promise<void>;
}

/** identity as the gateway sees it: a JWKS (counting its fetches) and the feed of ended sessions (workload token only). */
export async function startJwks(keys: SigningKey[]): Promise<Identity> {
  let fetches = 0;
  let feedFailures = 0;
  const ended = new Set<string>();
  const workloads = new WorkloadCredentials(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET, 'identity');
  const server = http.createServer((req, res) => {
    if (req.url === '/internal/revocations') {
      if (identity.feedStatus !== 200) {
        feedFailures++;
        return json(res, identity.feedStatus, {});
      }
      try {
        workloads.verify(req.headers['x-workload-token'] as string | undefined, 'identity', ['gateway']);
      } catch {
        return json(res, 401, {});
      }
      return json(res, 200, { sessions: [...ended] });
    }
    fetches++;
    if (req.url !== '/jwks.json') return json(res, 404, {});
    json(res, 200, { keys: keys.map((k) => k.jwk) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const identity: Identity = {
    url: `http://127.0.0.1:${port}/jwks.json`,
    revocationsUrl: `http://127.0.0.1:${port}/internal/revocations`,
    revoke: (sessionId) => void ended.add(sessionId),
    feedStatus: 200,
    feedFailures: () => feedFailures,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return identity;
}
