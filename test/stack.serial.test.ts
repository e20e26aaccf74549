// The product as `npm start` runs it: every service built and started as its own process, behind the gateway
// on :8080. Serial because it takes the real ports; it needs a build (`npm test` builds first).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SERVICES, startServices, waitUntilHealthy } from '../scripts/lib/services.mjs';
import { portOpen } from '../scripts/lib/sh.mjs';

const base = 'http://localhost:8080';
const VHOST = 'frametext_stack_test';
const dataDir = mkdtempSync(path.join(tmpdir(), 'frametext-stack-'));
let running: ReturnType<typeof startServices> | undefined;

beforeAll(async () => {
  for (const service of SERVICES) {
    if (!existsSync(path.join(ROOT, 'services', service, 'dist', 'main.js'))) throw new Error(`services/${service} is not built: run pnpm run build (npm test does)`);
  }
  if (await portOpen(8080)) throw new Error('port 8080 is taken (is `npm start` running?): stop it to run this test');
  // A RabbitMQ virtual host and a database of its own, so this run never meets a real installation's queues or data.
  try {
    execFileSync('rabbitmqctl', ['add_vhost', VHOST], { stdio: 'ignore' });
  } catch {
    // Left by an interrupted run: reuse it.
  }
  execFileSync('rabbitmqctl', ['set_permissions', '-p', VHOST, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  running = startServices({
    quiet: true,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:5432/frametext_stack_test',
      RABBITMQ_URL: `amqp://guest:guest@127.0.0.1:5672/${VHOST}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
  });
  await waitUntilHealthy(base, 90_000);
}, 120_000);

afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  execFileSync('rabbitmqctl', ['delete_vhost', VHOST], { stdio: 'ignore' });
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
