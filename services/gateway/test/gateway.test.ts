import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@frametext/service-kit';
import { rawRequest, socketRequest } from '@frametext/service-kit/testing';
import type { Gateway } from '../src/app.js';
import { openApiPath, type OpenApiDocument } from '@frametext/contracts/openapi';
import { UPSTREAM_SERVICES, type UpstreamService } from '../src/config.js';
import { openApiDocument } from '../src/openapi.js';
import { ROUTES } from '../src/routes.js';
import { gatewaySettings, startGateway } from './start-gateway.js';
import { FakeService, forgeToken, hmacWith, json, makeKey, signToken, startJwks, validClaims } from './support.js';

const key = makeKey('key-1');
const strangerKey = makeKey('key-stranger');
const upstream = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, new FakeService(s)])) as Record<UpstreamService, FakeService>;
const tmp = mkdtempSync(path.join(tmpdir(), 'gateway-test-'));
const spaDir = path.join(tmp, 'spa');
let jwks: Awaited<ReturnType<typeof startJwks>>;
let gateway: Gateway;
let server: RunningServer;
let base: string;

/** This file's gateways answer and give up fast, and allow the one browser origin the CORS tests use. */
function settings(overrides: Record<string, string> = {}): Record<string, string> {
  return gatewaySettings(
    { upstream, identity: jwks, dir: tmp },
    {
      REVOCATIONS_POLL_MS: '100',
      PROXY_TIMEOUT_MS: '700',
      HEALTH_TIMEOUT_MS: '500',
      API_BODY_TIMEOUT_MS: '500',
      STORAGE_BODY_IDLE_TIMEOUT_MS: '500',
      CORS_ORIGINS: 'https://app.example',
      ...overrides,
    },
  );
}

/** What the gateway and the fake services answer, loosely typed for assertions. */
interface Answer {
  error: { code: string; message: string };
  status: string;
  services: Record<string, { status: string; checks: Record<string, string> }>;
  service: string;
  authorization: string | null;
}
const answer = async (res: Response) => (await res.json()) as Answer;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  mkdirSync(path.join(spaDir, 'assets'), { recursive: true });
  writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><title>FrameText</title><div id="root"></div>');
  writeFileSync(path.join(spaDir, 'assets', 'index-3f2a1b.js'), 'console.log("app")');
  for (const s of Object.values(upstream)) await s.start();
  jwks = await startJwks([key]);
  ({ gateway, server, base } = await startGateway(settings()));
});

afterAll(async () => {
  await server?.close();
  await gateway?.close();
  for (const s of Object.values(upstream)) await s.stop();
  await jwks?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('signed-in routes', () => {
  it('refuse a request without a token with 403 and a JSON error, without calling the service', async () => {
    const before = upstream.results.seen.length;
    const res = await fetch(`${base}/api/getUploads`);
    expect(res.status).toBe(403);
    expect((await answer(res)).error.code).toBe('auth/missing-token');
    expect(upstream.results.seen.length).toBe(before);
  });

  it('pass a valid token on unchanged, for the service to verify again (no header the service would have to believe)', async () => {
    const token = signToken(key, { sub: 'user-42' });
    const res = await fetch(`${base}/api/getUploads?limit=5`, { headers: bearer(token) });
    expect(res.status).toBe(200);
    expect(await answer(res)).toEqual({ service: 'results', authorization: `Bearer ${token}` });
    const seen = upstream.results.last;
    expect(seen.url).toBe('/api/getUploads?limit=5');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-for']).toBeTruthy();
  });

  it('pass on the real client address, not one a client names, unless the proxy in front is trusted', async () => {
    const spoof = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' };
    const strict = await startGateway(settings({ TRUST_PROXY: '10.9.9.9' }));
    try {
      await fetch(`${strict.base}/api/auth/login`, { method: 'POST', headers: spoof, body: '{}' });
      expect(upstream.identity.last.headers['x-forwarded-for']).toBe('127.0.0.1');
    } finally {
      await strict.server.close();
      await strict.gateway.close();
    }
    // The default trusts loopback only: a local reverse proxy may name the client.
    await fetch(`${base}/api/auth/login`, { method: 'POST', headers: spoof, body: '{}' });
    expect(upstream.identity.last.headers['x-forwarded-for']).toBe('203.0.113.9');
  });

  it.each([
    ['a tampered payload', () => {
      const [h, , s] = signToken(key).split('.');
      return `${h}.${Buffer.from(JSON.stringify(validClaims('admin'))).toString('base64url')}.${s}`;
    }],
    ['alg none', () => forgeToken({ alg: 'none', typ: 'JWT', kid: key.kid }, validClaims(), () => '')],
    ['HS256 signed with the public key', () => forgeToken({ alg: 'HS256', typ: 'JWT', kid: key.kid }, validClaims(), hmacWith(key.publicPem))],
    ['an unknown kid', () => signToken(strangerKey)],
    ['a stranger key claiming our kid', () => signToken({ ...strangerKey, kid: key.kid })],
    ['an expired token', () => signToken(key, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['the wrong audience', () => signToken(key, { aud: 'someone-else' })],
    ['the wrong issuer', () => signToken(key, { iss: 'evil-identity' })],
    ['garbage', () => 'not.a.token'],
  ])('answer 403 for %s', async (_name, token) => {
    const before = upstream.results.seen.length;
    const res = await fetch(`${base}/api/getUploads`, { headers: bearer(token()) });
    expect(res.status).toBe(403);
    const body = await answer(res);
    expect(body.error.code).toMatch(/^auth\/(invalid-token|token-expired)$/);
    expect(body.error.message).toBeTruthy();
    expect(upstream.results.seen.length).toBe(before);
  });

  it('route by the table: upload, results and billing each get their own endpoints, paths unchanged', async () => {
    const headers = { ...bearer(signToken(key)), 'content-type': 'application/json' };
    expect(await answer(await fetch(`${base}/api/getUploadURL`, { method: 'POST', headers, body: '{}' }))).toMatchObject({ service: 'upload' });
    expect(upstream.upload.last.url).toBe('/api/getUploadURL');
    expect(await answer(await fetch(`${base}/api/checkUploadStatus/abc`, { headers }))).toMatchObject({ service: 'results' });
    expect(upstream.results.last.url).toBe('/api/checkUploadStatus/abc');
    expect(await answer(await fetch(`${base}/api/getUserData`, { headers }))).toMatchObject({ service: 'billing' });
  });

  it('answer 405 with Allow for a known path and the wrong method', async () => {
    const res = await fetch(`${base}/api/getUploadURL`, { headers: bearer(signToken(key)) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await answer(res)).error.code).toBe('request/method-not-allowed');
  });

  it('refuse the tokens of a session that has ended (log-out) within the feed interval, and only that session', async () => {
    const ended = signToken(key, { sub: 'user-7', sid: '5a0c4c52-8f4b-4d0e-9a59-1d6f3f0a0001' });
    const other = signToken(key, { sub: 'user-7', sid: '5a0c4c52-8f4b-4d0e-9a59-1d6f3f0a0002' });
    expect((await fetch(`${base}/api/getUploads`, { headers: bearer(ended) })).status).toBe(200);
    jwks.revoke('5a0c4c52-8f4b-4d0e-9a59-1d6f3f0a0001');
    await expect.poll(async () => (await fetch(`${base}/api/getUploads`, { headers: bearer(ended) })).status, { timeout: 3_000 }).toBe(403);
    const res = await fetch(`${base}/api/getUploads`, { headers: bearer(ended) });
    expect((await answer(res)).error.code).toBe('auth/session-ended');
    expect((await fetch(`${base}/api/getUploads`, { headers: bearer(other) })).status).toBe(200);
  });

  it('keep the last list of ended sessions while identity is unreachable, and say so in readiness until one is read', async () => {
    jwks.revoke('5a0c4c52-8f4b-4d0e-9a59-1d6f3f0a0003');
    const ended = signToken(key, { sub: 'user-8', sid: '5a0c4c52-8f4b-4d0e-9a59-1d6f3f0a0003' });
    await expect.poll(async () => (await fetch(`${base}/api/getUploads`, { headers: bearer(ended) })).status, { timeout: 3_000 }).toBe(403);
    const failuresBefore = jwks.feedFailures();
    jwks.feedStatus = 500;
    try {
      // Two failed reads of the feed: the gateway reads it one poll at a time, so the first has been handled.
      await expect.poll(() => jwks.feedFailures(), { timeout: 3_000 }).toBeGreaterThanOrEqual(failuresBefore + 2);
      expect((await fetch(`${base}/api/getUploads`, { headers: bearer(ended) })).status).toBe(403);
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);
      // A gateway that starts while the feed is down is not ready: it cannot know which sessions have ended.
      const fresh = await startGateway(settings());
      try {
        const ready = await fetch(`${fresh.base}/health/ready`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { checks: Record<string, string> }).checks.revocations).toMatch(/not been read/);
      } finally {
        await fresh.server.close();
        await fresh.gateway.close();
      }
    } finally {
      jwks.feedStatus = 200;
    }
  });
});

describe('public routes', () => {
  it('pass without a token', async () => {
    const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@b.c"}' });
    expect(res.status).toBe(200);
    expect(upstream.identity.last.url).toBe('/api/auth/login');
    expect(upstream.identity.last.body.toString()).toBe('{"email":"a@b.c"}');

    expect((await fetch(`${base}/api/getUploadDetails/demo`)).status).toBe(200);
    expect(upstream.results.last.url).toBe('/api/getUploadDetails/demo');
    expect((await fetch(`${base}/api/config`)).status).toBe(200);
    expect(upstream.billing.last.url).toBe('/api/config');
  });

  it('keep other upload ids signed-in (the demo exception is exact)', async () => {
    expect((await fetch(`${base}/api/getUploadDetails/DEMO`)).status).toBe(403);
    expect((await fetch(`${base}/api/getUploadDetails/demo/x`)).status).toBe(404);
  });

  it('forward the Stripe webhook body byte for byte with its signature header', async () => {
    const payload = '{"id":"evt_1",  "type":"checkout.session.completed"}\n';
    const res = await fetch(`${base}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' }, body: payload });
    expect(res.status).toBe(200);
    expect(upstream.billing.last.body.toString()).toBe(payload);
    expect(upstream.billing.last.headers['stripe-signature']).toBe('t=1,v1=abc');
  });

  it('reach the simulated checkout page and its pay form without a token; checkout status needs one', async () => {
    const page = '/api/simulated-checkout/cs_sim_0123';
    expect((await fetch(`${base}${page}`)).status).toBe(200);
    expect(upstream.billing.last.url).toBe(page);
    const pay = await fetch(`${base}${page}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(pay.status).toBe(200);
    expect(upstream.billing.last).toMatchObject({ method: 'POST', url: `${page}/pay` });
    expect((await fetch(`${base}/api/checkout-sessions/cs_test_1`)).status).toBe(403);
  });

  it('let malformed JSON reach the service untouched, which answers it', async () => {
    upstream.identity.handler = (_req, res, body) => {
      try {
        JSON.parse(body.toString());
        json(res, 200, {});
      } catch {
        json(res, 400, { error: { code: 'request/malformed-json', message: 'bad json' } });
      }
    };
    try {
      const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": ' });
      expect(res.status).toBe(400);
      expect((await answer(res)).error.code).toBe('request/malformed-json');
      expect(upstream.identity.last.body.toString()).toBe('{"email": ');
    } finally {
      upstream.identity.handler = undefined;
    }
  });
});

describe('failures', () => {
  it('answer 503 JSON naming the service when it is down', async () => {
    await upstream.billing.stop();
    try {
      const res = await fetch(`${base}/api/getUserData`, { headers: bearer(signToken(key)) });
      expect(res.status).toBe(503);
      const body = await answer(res);
      expect(body.error.code).toBe('gateway/service-unavailable');
      expect(body.error.message).toBe('The billing service is not available right now. Please try again shortly.');
    } finally {
      await upstream.billing.start();
    }
  });

  it('answer 504 JSON when the service does not answer in time', async () => {
    upstream.billing.handler = () => undefined;
    try {
      const res = await fetch(`${base}/api/config`);
      expect(res.status).toBe(504);
      expect((await answer(res)).error.code).toBe('gateway/timeout');
    } finally {
      upstream.billing.handler = undefined;
    }
  });

  it('answer a JSON 404 for an unknown /api route', async () => {
    const res = await fetch(`${base}/api/nope`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect((await answer(res)).error.code).toBe('request/not-found');
  });

  it('refuse an oversize body with 413 JSON, from Content-Length, before the service sees it', async () => {
    const before = upstream.identity.seen.length;
    const big = Buffer.alloc(1024 * 1024 + 1, 'a');
    const res = await rawRequest(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(big.length) }, chunks: [big] });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('request/too-large');
    expect(upstream.identity.seen.length).toBe(before);
  });

  it('refuse an oversize chunked body with 413 JSON while streaming', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const res = await rawRequest(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: Array.from({ length: 6 }, () => chunk) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('request/too-large');
  });
});

describe('slow bodies', () => {
  const loginHead = (length: number) => `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('cut an API body that trickles past API_BODY_TIMEOUT_MS with 408 JSON and close the connection', async () => {
    const before = upstream.identity.seen.length;
    const chunks = Array.from({ length: 12 }, () => Buffer.from('  '));
    const res = await rawRequest(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '24' }, chunks, pauseMs: 100 });
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request/body-timeout', message: expect.stringMatching(/within 0\.5 s/) } });
    expect(upstream.identity.seen.length).toBe(before);
  });

  it('cut an API body that stalls, with 408 JSON', async () => {
    const res = await socketRequest(base, [loginHead(100), '{"email":']);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request/body-timeout' } });
  });

  it('let a whole API body that arrives in time through', async () => {
    const res = await rawRequest(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{"a":'), Buffer.from('1}')], pauseMs: 50 });
    expect(res.status).toBe(200);
    expect(upstream.identity.last.body.toString()).toBe('{"a":1}');
  });

  it('give uploads an idle limit instead: a slow steady PUT passes, a stalled one gets 408 (S3 pass-through and /files)', async () => {
    const store = await new FakeService('minio').start();
    const other = await startGateway(settings({ STORAGE_DRIVER: 's3', S3_ENDPOINT: store.url, S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's', STORAGE_BUCKET: 'frametext' }));
    try {
      const path = '/frametext/uploads/u1/video.mp4?X-Amz-Signature=abc';
      const chunks = Array.from({ length: 10 }, () => Buffer.alloc(1000, 'v'));
      const steady = await rawRequest(`${other.base}${path}`, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, chunks, pauseMs: 100 });
      expect(steady.status).toBe(200);
      expect(store.last.body.length).toBe(10_000);
      const stalled = await socketRequest(other.base, [`PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: video/mp4\r\nContent-Length: 5000\r\n\r\n`, Buffer.alloc(100)]);
      expect(stalled.status).toBe(408);
      expect(JSON.parse(stalled.body)).toMatchObject({ error: { code: 'request/body-idle' } });
    } finally {
      await other.server.close();
      await other.gateway.close();
      await store.stop();
    }
    const put = new URL(await gateway.storage!.presignPut('uploads/u2/stalled.txt', { contentType: 'text/plain' }));
    const files = await socketRequest(base, [`PUT ${put.pathname}${put.search} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n`, 'partial']);
    expect(files.status).toBe(408);
    expect(await gateway.storage!.head('uploads/u2/stalled.txt')).toBeNull();
  });

  it('set the server clocks from its settings', () => {
    expect(server.server.headersTimeout).toBe(15_000);
    expect(server.server.requestTimeout).toBe(3_600_000);
    expect(server.server.keepAliveTimeout).toBe(65_000);
  });
});

describe('health', () => {
  it('reports every service ready with 200', async () => {
    const res = await fetch(`${base}/api/health`);
    const body = await answer(res);
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    expect(Object.keys(body.services).sort()).toEqual([...UPSTREAM_SERVICES].sort());
    expect(body.services.results).toEqual({ status: 'ok', checks: { postgres: 'ok' } });
  });

  it('answers 503 naming the service that is not ready, and one that is unreachable', async () => {
    upstream.results.ready = false;
    await upstream['ocr-cloud'].stop();
    try {
      const res = await fetch(`${base}/api/health`);
      const body = await answer(res);
      expect(res.status).toBe(503);
      expect(body.status).toBe('unavailable');
      expect(body.services.results).toEqual({ status: 'unavailable', checks: { postgres: 'connection refused' } });
      expect(body.services['ocr-cloud']?.status).toBe('unreachable');
      expect(body.services.upload?.status).toBe('ok');
    } finally {
      upstream.results.ready = true;
      await upstream['ocr-cloud'].start();
    }
  });

  it('says a worker the autoscaler runs from zero is scaled to zero, not down, when none of it answers', async () => {
    const other = await startGateway(settings({ HEALTH_ON_DEMAND: 'ocr-tesseract' }));
    try {
      await upstream['ocr-tesseract'].stop();
      try {
        const res = await fetch(`${other.base}/api/health`);
        const body = await answer(res);
        expect(res.status).toBe(200);
        expect(body.services['ocr-tesseract']).toEqual({ status: 'scaled-to-zero', checks: { http: 'no replica running; one starts when work arrives' } });
      } finally {
        await upstream['ocr-tesseract'].start();
      }
      // A replica that answers, unready, is a fault all the same.
      upstream['ocr-tesseract'].ready = false;
      expect((await fetch(`${other.base}/api/health`)).status).toBe(503);
    } finally {
      upstream['ocr-tesseract'].ready = true;
      await other.server.close();
      await other.gateway.close();
    }
  });

  it("has the gateway's own live and ready endpoints", async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
  });
});

describe('the API description', () => {
  it('serves /api/openapi.json without a token, cacheable, describing every route of its table', async () => {
    const res = await fetch(`${base}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const doc = (await res.json()) as OpenApiDocument;
    expect(doc).toEqual(openApiDocument());
    expect(doc.openapi).toBe('3.1.1');
    for (const route of ROUTES.filter((r) => r.methods !== '*')) expect(doc.paths[openApiPath(route.path)], route.path).toBeDefined();
    // Read by the description, not forwarded: no service saw the call.
    expect(Object.values(upstream).flatMap((s) => s.seen).some((seen) => seen.url === '/api/openapi.json')).toBe(false);
    // Revalidation costs nothing: the same ETag answers 304 (max-age=0 keeps fetch from adding no-cache, as a browser revalidates).
    const again = await fetch(`${base}/api/openapi.json`, { headers: { 'if-none-match': res.headers.get('etag') ?? '', 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
  });
});

describe('headers', () => {
  it('sets security headers with a CSP for the SPA', async () => {
    const res = await fetch(`${base}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    // The Local engine's workers come from our own files only: no blob: workers, no eval.
    expect(csp).toMatch(/worker-src 'self'(;|$)/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("img-src 'self' blob: data:");
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows CORS only for the configured origins', async () => {
    const ok = await fetch(`${base}/api/config`, { headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const preflight = await fetch(`${base}/api/getUploads`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization');
    const other = await fetch(`${base}/api/config`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('forwards the caller correlation id, or makes one', async () => {
    const res = await fetch(`${base}/api/config`, { headers: { 'x-correlation-id': 'corr-test-1234' } });
    expect(res.headers.get('x-correlation-id')).toBe('corr-test-1234');
    expect(upstream.billing.last.headers['x-correlation-id']).toBe('corr-test-1234');
    const res2 = await fetch(`${base}/api/config`);
    // A request that names none gets its trace id as its correlation id.
    const generated = res2.headers.get('x-correlation-id');
    expect(generated).toMatch(/^[0-9a-f]{32}$/);
    expect(upstream.billing.last.headers['x-correlation-id']).toBe(generated);
    expect(upstream.billing.last.headers.traceparent).toMatch(new RegExp(`^00-${generated}-[0-9a-f]{16}-0[01]$`));
  });

  it("continues the browser's trace as its own span, and starts a new one when the browser's header is malformed", async () => {
    const traceId = 'a3ce929d0e0e47364bf92f3577b34da6';
    const browserSpan = 'b7ad6b7169203331';
    const res = await fetch(`${base}/api/config`, { headers: { traceparent: `00-${traceId}-${browserSpan}-01`, tracestate: 'vendor=browser' } });
    expect(res.status).toBe(200);
    const forwarded = String(upstream.billing.last.headers.traceparent);
    expect(forwarded).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
    expect(forwarded).not.toContain(browserSpan);
    expect(res.headers.get('x-correlation-id')).toBe(traceId);

    await fetch(`${base}/api/config`, { headers: { traceparent: `00-${traceId}-not-a-span-id-01` } });
    const fresh = String(upstream.billing.last.headers.traceparent);
    expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(fresh).not.toContain(traceId);
  });
});

describe('SPA and files', () => {
  it('serves index.html for app pages (history fallback) with no-cache, and hashed assets with a long cache', async () => {
    const page = await fetch(`${base}/uploads`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${base}/assets/index-3f2a1b.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base}/assets/missing.js`, { headers: { accept: 'application/javascript' } })).status).toBe(404);
  });

  it('answers a page explaining how to build the SPA when it is not built', async () => {
    const other = await startGateway(settings({ SPA_DIR: path.join(tmp, 'no-spa-here') }));
    try {
      const res = await fetch(`${other.base}/uploads`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('pnpm --filter @frametext/frontend build');
    } finally {
      await other.server.close();
      await other.gateway.close();
    }
  });

  it('serves the fs store presigned URLs at /files', async () => {
    const storage = gateway.storage!;
    const put = new URL(await storage.presignPut('uploads/u1/source.txt', { contentType: 'text/plain' }));
    const stored = await fetch(`${base}${put.pathname}${put.search}`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello frames' });
    expect(stored.status).toBeLessThan(300);
    const get = new URL(await storage.presignGet('uploads/u1/source.txt'));
    const read = await fetch(`${base}${get.pathname}${get.search}`);
    expect(await read.text()).toBe('hello frames');
    const forged = await fetch(`${base}${get.pathname}?${get.searchParams.toString().replace(/signature=[^&]+/i, 'signature=00')}`);
    expect(forged.status).toBe(403);
  });

  it('with the s3 driver, passes the bucket path to the store with the store\'s Host, beyond the API body limit', async () => {
    const store = await new FakeService('minio').start();
    const other = await startGateway(settings({ STORAGE_DRIVER: 's3', S3_ENDPOINT: store.url, S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's', STORAGE_BUCKET: 'frametext' }));
    try {
      const big = Buffer.alloc(2 * 1024 * 1024, 'v');
      const path = '/frametext/uploads/u1/video.mp4?X-Amz-Signature=abc';
      const res = await rawRequest(`${other.base}${path}`, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-length': String(big.length) }, chunks: [big] });
      expect(res.status).toBe(200);
      expect(store.last.url).toBe(path);
      expect(store.last.headers.host).toBe(`127.0.0.1:${store.port}`);
      expect(store.last.headers['x-forwarded-host']).toBeUndefined();
      expect(store.last.body.length).toBe(big.length);
      expect((await fetch(`${other.base}/files/anything`)).status).toBe(404);
    } finally {
      await other.server.close();
      await other.gateway.close();
      await store.stop();
    }
  });

  it('with S3_ADDRESSING=virtual, sends /<bucket>/<key> to <key> at the bucket\'s own host name, with that Host', async () => {
    const store = await new FakeService('s3').start();
    const storeNames: string[] = [];
    // The bucket's host name, frametext.localhost, is the fake store on loopback.
    const storeLookup: LookupFunction = (hostname, options, callback) => {
      storeNames.push(hostname);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };
    const env = settings({ STORAGE_DRIVER: 's3', S3_ADDRESSING: 'virtual', S3_ENDPOINT: `http://localhost:${store.port}`, S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's', STORAGE_BUCKET: 'frametext' });
    const other = await startGateway(env, { storeLookup });
    try {
      const res = await fetch(`${other.base}/frametext/uploads/u1/photo%201.jpg?X-Amz-Signature=abc`, { method: 'PUT', body: 'photo', headers: { 'content-type': 'image/jpeg' } });
      expect(res.status).toBe(200);
      expect(store.last.url).toBe('/uploads/u1/photo%201.jpg?X-Amz-Signature=abc');
      expect(store.last.headers.host).toBe(`frametext.localhost:${store.port}`);
      expect(store.last.headers['x-forwarded-host']).toBeUndefined();
      expect(store.last.body.toString()).toBe('photo');
      expect(storeNames).toEqual(['frametext.localhost']);
    } finally {
      await other.server.close();
      await other.gateway.close();
      await store.stop();
    }
  });
});
