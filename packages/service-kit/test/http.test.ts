import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors/index.js';
import { createHttpApp, finishHttpApp, listen, type RunningServer } from '../src/http/app.js';
import { parseBody } from '../src/http/validate.js';
import { currentContext } from '../src/logging/context.js';
import { testLogger } from '../src/testing/index.js';

let server: RunningServer;
let base: string;
let dependencyUp = true;

beforeAll(async () => {
  const logger = testLogger();
  const http = createHttpApp({ name: 'demo', logger, bodyLimit: '1kb', readiness: { postgres: async () => void (dependencyUp || (await Promise.reject(new Error('connection refused')))) } });
  http.app.post('/echo', (req, res) => {
    const body = parseBody(z.object({ name: z.string().min(1), count: z.number().int() }), req.body);
    res.json({ body, correlationId: currentContext()?.correlationId });
  });
  http.app.get('/conflict', () => {
    throw new AppError(409, 'demo/conflict', 'That name is taken.');
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
    expect((await json(ready)).checks).toEqual({ postgres: 'ok' });
    dependencyUp = false;
    const down = await fetch(`${base}/health/ready`);
    expect(down.status).toBe(503);
    expect((await json(down)).checks.postgres).toBe('connection refused');
    dependencyUp = true;
  });
});
