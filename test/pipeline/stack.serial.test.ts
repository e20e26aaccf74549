// The product as `npm start` runs it: every service built and started as its own process, behind the gateway
// on :8080. Serial because it takes the real ports; it needs a build (`npm test` builds first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIsolatedProduct } from '../../scripts/lib/isolated-product.mjs';
import { SERVICES } from '../../scripts/lib/services.mjs';

const base = 'http://localhost:8080';
let product: Awaited<ReturnType<typeof startIsolatedProduct>> | undefined;
let running: Awaited<ReturnType<typeof startIsolatedProduct>>['running'] | undefined;

beforeAll(async () => {
  product = await startIsolatedProduct('stack_test', { LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 90_000);
  running = product.running;
}, 120_000);

afterAll(async () => {
  await product?.stop();
}, 60_000);

describe('the whole product, one process per service', () => {
  it('reports every service ready at /api/health', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { services: Record<string, { status: string }> };
    expect(Object.keys(body.services).sort()).toEqual(SERVICES.filter((s: string) => s !== 'gateway').sort());
  });

  it('serves the web app with a history fallback, and the API as JSON', async () => {
    const page = await fetch(`${base}/uploads`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const missing = await fetch(`${base}/api/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('request/not-found');
  });

  it('signs a user up and lets the token through to a signed-in route', async () => {
    const email = `stack-${Date.now()}@example.com`;
    const signup = await fetch(`${base}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'stack-pass-1' }) });
    expect(signup.status).toBe(201);
    const { idToken } = (await signup.json()) as { idToken: string };
    const withToken = await fetch(`${base}/api/getUploads`, { headers: { authorization: `Bearer ${idToken}` } });
    expect(withToken.status).not.toBe(403);
    const forged = await fetch(`${base}/api/getUploads`, { headers: { authorization: `Bearer ${idToken.slice(0, -4)}AAAA` } });
    expect(forged.status).toBe(403);
  });

  it('stops every process cleanly on SIGTERM', async () => {
    const children = [...running!.children.values()];
    await running!.stop();
    running = undefined;
    expect(children.every((c) => c.exitCode === 0)).toBe(true);
  }, 60_000);
});
