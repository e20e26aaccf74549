// The foundation's "done when", walked through the gateway the way a client sees it: sign up, log in, refresh,
// reset a password through the mailbox link, log in with the new one; forged tokens get 403.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, parseConfig, type RunningServer } from '@frametext/service-kit';
import { eventually, testLogger } from '@frametext/service-kit/testing';
import { createGateway, type Gateway } from '../services/gateway/src/app.js';
import { gatewayConfigSchema } from '../services/gateway/src/config.js';
import { startIdentity, type TestIdentity } from '../services/identity/test/helpers.js';

let identity: TestIdentity;
let gateway: Gateway;
let server: RunningServer;
let api: string;

beforeAll(async () => {
  identity = await startIdentity();
  const config = parseConfig(gatewayConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    IDENTITY_URL: identity.url,
    // Every other service is absent in this test: /api/health must say so.
    UPLOAD_URL: 'http://127.0.0.1:9',
    FRAME_EXTRACTION_URL: 'http://127.0.0.1:9',
    OCR_TESSERACT_URL: 'http://127.0.0.1:9',
    OCR_CLOUD_URL: 'http://127.0.0.1:9',
    BILLING_URL: 'http://127.0.0.1:9',
    RESULTS_URL: 'http://127.0.0.1:9',
    JWKS_URL: `${identity.url}/api/auth/jwks.json`,
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: 'http://127.0.0.1:9',
    S3_ACCESS_KEY: 'unused',
    S3_SECRET_KEY: 'unused',
    HEALTH_TIMEOUT_MS: '500',
  });
  gateway = createGateway(config, { logger: testLogger('gateway') });
  server = await listen(gateway.app, 0, '127.0.0.1');
  api = `http://127.0.0.1:${server.port}/api`;
});

afterAll(async () => {
  await server?.close();
  gateway?.close();
  await identity?.stop();
});

async function call(method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function resetLinkFor(email: string): Promise<string> {
  return eventually(async () => {
    const files = await readdir(identity.mailbox).catch(() => []);
    for (const f of files) {
      // Quoted-printable soft line breaks and =3D must be undone to read the link.
      const text = (await readFile(join(identity.mailbox, f), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      // The sign-up's confirmation mail goes to the same address: only the reset mail has this link.
      const token = text.includes(email) ? /https?:\/\/\S+reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] : undefined;
      if (token) return token;
    }
    return undefined;
  });
}

describe('an account through the gateway', () => {
  const email = `walkthrough-${Date.now()}@example.com`;

  it('signs up, logs in, refreshes, resets the password by the mailed link, and logs in with the new one', async () => {
    const signup = await call('POST', '/auth/signup', { email, password: 'first-pass-1' });
    expect(signup.status).toBe(201);
    expect(signup.body.user).toMatchObject({ email, firstLogin: true });

    const login = await call('POST', '/auth/login', { email, password: 'first-pass-1' });
    expect(login.status).toBe(200);
    expect(typeof login.body.idToken).toBe('string');

    const refreshed = await call('POST', '/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(login.body.refreshToken);

    expect((await call('POST', '/auth/password-reset', { email })).status).toBe(204);
    const token = await resetLinkFor(email);
    expect((await call('POST', '/auth/password-reset/confirm', { token, password: 'second-pass-2' })).status).toBe(204);

    expect((await call('POST', '/auth/login', { email, password: 'first-pass-1' })).body.error.code).toBe('auth/invalid-credential');
    expect((await call('POST', '/auth/login', { email, password: 'second-pass-2' })).status).toBe(200);
  });

  it('lets a real token past the gateway and answers forged ones with 403', async () => {
    const { body } = await call('POST', '/auth/login', { email, password: 'second-pass-2' });
    // A signed-in route whose service is down: the token passed, so the answer is the gateway's 503.
    expect((await call('GET', '/getUploads', undefined, body.idToken)).status).toBe(503);

    const [header, payload, signature] = body.idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const forged of [tampered, unsigned, 'not-a-token']) {
      const res = await call('GET', '/getUploads', undefined, forged);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toMatch(/^auth\//);
    }
  });

  it('reports in /api/health which services are not ready', async () => {
    const res = await call('GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body.services.identity.status).toBe('ok');
    expect(res.body.services.upload.status).not.toBe('ok');
  });
});
