import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors/index.js';
import { createHttpApp, finishHttpApp, listen, type RunningServer } from '../src/http/app.js';
import { parseBody } from '../src/http/validate.js';
import { currentContext } from '../src/logging/context.js';
import { socketRequest, testLogger } from '../src/testing/index.js';

let server: RunningServer;
let base: string;
let dependencyUp = true;
let brokerUp = true;
/** Requests that reached a handler: a refused one must never get this far. */
let handled = 0;

beforeAll(async () => {
  const logger = testLogger();
  const http = createHttpApp({
    name: 'demo',
    logger,
    bodyLimit: '1kb',
    readiness: { postgres: async () => void (dependencyUp || (await Promise.reject(new Error('connection refused')))) },
    reported: { rabbitmq: async () => void (brokerUp || (await Promise.reject(new Error('broker unreachable')))) },
  });
  http.app.post('/echo', (req, res) => {
    handled += 1;
    const body = parseBody(z.object({ name: z.string().min(1), count: z.number().int() }), req.body);
    res.json({ body, correlationId: currentContext()?.correlationId });
  });
  http.app.get('/conflict', () => {
    throw new AppError(409, 'demo/conflict', 'That name is taken.');
  });
  http.app.get('/items/:id', (req, res) => {
    handled += 1;
    res.json({ id: req.params.id, query: req.query, ip: req.ip });
  });
  http.app.get('/bug', () => {
    throw new Error('secret internal detail at /srv/app.js:42');
  });
  finishHttpApp(http.app, logger);
  server = await listen(http.app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => server.close());

const json = async (res: Response): Promise<any> => res.json();

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('http app', () => {
  it('answers valid JSON and carries the caller correlation id', async () => {
    const res = await post('/echo', JSON.stringify({ name: 'a', count: 2 }), { 'x-correlation-id': 'corr-12345678' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-correlation-id')).toBe('corr-12345678');
    expect(await json(res)).toEqual({ body: { name: 'a', count: 2 }, correlationId: 'corr-12345678' });
  });

  it('refuses malformed JSON with a 400 that says what to fix', async () => {
    const res = await post('/echo', '{"name": "a",');
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error.code).toBe('request/malformed-json');
    expect(body.error.message).toMatch(/not valid JSON/);
  });

  it('refuses wrong types and missing fields naming the field', async () => {
    const wrong = await post('/echo', JSON.stringify({ name: 'a', count: 'two' }));
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error).toMatchObject({ code: 'request/invalid-body', message: expect.stringMatching(/^count: /) });
    const missing = await post('/echo', JSON.stringify({ count: 1 }));
    expect((await json(missing)).error.message).toMatch(/^name: /);
  });

  it('refuses an oversize body with 413', async () => {
    const res = await post('/echo', JSON.stringify({ name: 'x'.repeat(5000), count: 1 }));
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe('request/too-large');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('request/not-found');
  });

  it('passes an AppError through with its status and code', async () => {
    const res = await fetch(`${base}/conflict`);
    expect(res.status).toBe(409);
    expect((await json(res)).error).toMatchObject({ code: 'demo/conflict', message: 'That name is taken.' });
  });

  it('hides the details of an unexpected error', async () => {
    const res = await fetch(`${base}/bug`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('.js:');
    expect(JSON.parse(text).error.correlationId).toBeTruthy();
  });

  it('reports readiness with each check, and 503 when a dependency is down', async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect((await json(ready)).checks).toEqual({ postgres: 'ok', rabbitmq: 'ok' });
    dependencyUp = false;
    const down = await fetch(`${base}/health/ready`);
    expect(down.status).toBe(503);
    expect((await json(down)).checks.postgres).toBe('connection refused');
    dependencyUp = true;
  });

  it('stays ready while a dependency its requests do not need is down, and says so', async () => {
    brokerUp = false;
    try {
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect((await json(ready)).checks).toEqual({ postgres: 'ok', rabbitmq: 'broker unreachable' });
    } finally {
      brokerUp = true;
    }
  });
});

describe('hostile input', () => {
  const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: { code: string; message: string; details?: unknown } }).error });

  it('refuses a NUL character anywhere in a JSON body, naming the field, before any handler runs', async () => {
    const before = handled;
    const nul = await errorOf(await post('/echo', JSON.stringify({ name: 'a\u0000b', count: 1 })));
    expect(nul).toMatchObject({ status: 400, code: 'request/invalid-text', details: { location: 'body', field: 'name' } });
    expect(nul.message).toMatch(/^name: contains a NUL character/);
    const deep = await errorOf(await post('/echo', JSON.stringify({ name: 'a', count: 1, files: [{ tags: ['ok', 'no\u0000'] }] })));
    expect(deep).toMatchObject({ status: 400, code: 'request/invalid-text', details: { field: 'files.0.tags.1' } });
    const key = await errorOf(await post('/echo', JSON.stringify({ name: 'a', count: 1, 'bad\u0000key': 1 })));
    expect(key).toMatchObject({ status: 400, code: 'request/invalid-text' });
    expect(key.message).toContain('bad\\u0000key');
    expect(handled).toBe(before);
  });

  it('refuses lone UTF-16 surrogates (which jsonb cannot hold) and keeps well-formed pairs', async () => {
    const before = handled;
    for (const text of ['"\\ud800"', '"x\\udc00"', '"\\udc00\\ud800"']) {
      const res = await errorOf(await post('/echo', `{"name": ${text}, "count": 1}`));
      expect(res, text).toMatchObject({ status: 400, code: 'request/invalid-text', details: { field: 'name' } });
      expect(res.message).toMatch(/unpaired UTF-16 surrogate \(\\ud[8c]00\)/);
    }
    expect(handled).toBe(before);
    const emoji = await post('/echo', '{"name": "\\ud83d\\ude00 ok", "count": 1}');
    expect(emoji.status).toBe(200);
    expect(((await emoji.json()) as { body: { name: string } }).body.name).toBe('\u{1F600} ok');
  });

  it('refuses prototype-pollution keys and bodies nested beyond the limit', async () => {
    const before = handled;
    expect(await errorOf(await post('/echo', '{"name": "a", "count": 1, "__proto__": {"admin": true}}'))).toMatchObject({ status: 400, code: 'request/forbidden-key', details: { field: '__proto__' } });
    expect(await errorOf(await post('/echo', '{"name": "a", "count": 1, "x": {"constructor": {"prototype": {}}}}'))).toMatchObject({ status: 400, code: 'request/forbidden-key' });
    const deep = `{"name": "a", "count": 1, "x": ${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(await errorOf(await post('/echo', deep))).toMatchObject({ status: 400, code: 'request/too-deep' });
    expect(handled).toBe(before);
  });

  it('refuses NUL and lone surrogates in the query and in path parameters, and undecodable paths', async () => {
    const before = handled;
    expect(await errorOf(await fetch(`${base}/items/1?mode=a%00b`))).toMatchObject({ status: 400, code: 'request/invalid-text', details: { location: 'query', field: 'mode' } });
    expect(await errorOf(await fetch(`${base}/items/1?a%00=1`))).toMatchObject({ status: 400, code: 'request/invalid-text', details: { location: 'query' } });
    expect(await errorOf(await fetch(`${base}/items/ab%00c`))).toMatchObject({ status: 400, code: 'request/invalid-text', details: { location: 'path' } });
    // %ED%A0%80 would be the UTF-8 of U+D800, which UTF-8 does not allow.
    expect(await errorOf(await fetch(`${base}/items/%ED%A0%80`))).toMatchObject({ status: 400, code: 'request/invalid-path' });
    expect(await errorOf(await fetch(`${base}/items/%E0%A4%A`))).toMatchObject({ status: 400, code: 'request/invalid-path' });
    expect(await errorOf(await fetch(`${base}/items/1?x[__proto__]=1&__proto__=2`))).toMatchObject({ status: 400, code: 'request/forbidden-key' });
    expect(handled).toBe(before);
    const fine = await fetch(`${base}/items/caf%C3%A9?q=%F0%9F%98%80`);
    expect(await fine.json()).toMatchObject({ id: 'café', query: { q: '\u{1F600}' } });
  });

  it('takes a client address only when it is one: a made-up X-Forwarded-For gives the socket address', async () => {
    const named = (await (await fetch(`${base}/items/1`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).json()) as { ip: string };
    expect(named.ip).toBe('203.0.113.9');
    const made = (await (await fetch(`${base}/items/1`, { headers: { 'x-forwarded-for': `${'x'.repeat(2000)}, not an address` } })).json()) as { ip: string };
    expect(made.ip).toBe('127.0.0.1');
  });

  it('answers requests Node refuses itself (malformed HTTP, NUL in a header, huge headers) with a JSON error', async () => {
    const malformed = await socketRequest(base, ['GET /items/1 HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n']);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: 'request/malformed' } });
    const nulHeader = await socketRequest(base, ['GET /items/1 HTTP/1.1\r\nHost: x\r\nX-Name: a\u0000b\r\n\r\n']);
    expect(nulHeader.status).toBe(400);
    expect(nulHeader.headers['content-type']).toMatch(/application\/json/);
    const smuggled = await socketRequest(base, ['POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n']);
    expect(smuggled.status).toBe(400);
    const huge = await socketRequest(base, [`GET /items/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toMatchObject({ error: { code: 'request/headers-too-large' } });
  });

  it('answers a body shorter than its Content-Length, when the client gives up, with a 400', async () => {
    const before = handled;
    const res = await socketRequest(base, ['POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":'], { end: true });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request/incomplete' } });
    expect(handled).toBe(before);
  });
});

describe('server clocks', () => {
  let slow: RunningServer;
  let slowBase: string;
  beforeAll(async () => {
    const logger = testLogger();
    const http = createHttpApp({ name: 'clocks', logger });
    http.app.post('/echo', (req, res) => void res.json(req.body));
    finishHttpApp(http.app, logger);
    slow = await listen(http.app, 0, '127.0.0.1', { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 1_000 });
    slowBase = `http://127.0.0.1:${slow.port}`;
  });
  afterAll(() => slow.close());

  it('applies the timeouts it is given', () => {
    expect(slow.server.headersTimeout).toBe(300);
    expect(slow.server.requestTimeout).toBe(600);
    expect(slow.server.keepAliveTimeout).toBe(1_000);
  });

  it('answers 408 JSON to a client that never finishes its headers', async () => {
    const res = await socketRequest(slowBase, ['POST /echo HTTP/1.1\r\nHost: x\r\n']);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request/timeout' } });
  });

  it('answers 408 JSON to a client that stalls its body', async () => {
    const res = await socketRequest(slowBase, ['POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":']);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request/timeout' } });
  });
});
