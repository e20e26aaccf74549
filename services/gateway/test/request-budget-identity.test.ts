// The real gateway in front of an identity that cannot count a person's budget (slow, or restarting): requests within
// the budget still go through, and past it the client gets the usual 429, never a 5xx (docs/security.md, fail open).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UPSTREAM_SERVICES, type UpstreamService } from '../src/config.js';
import { rateLimitedMessage } from '../src/request-budget.js';
import { gatewaySettings, startGateway } from './start-gateway.js';
import { FakeService, json, makeKey, signToken, startJwks, type TokenClaims } from './support.js';

const key = makeKey('key-1');
const upstream = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, new FakeService(s)])) as Record<UpstreamService, FakeService>;
const tmp = mkdtempSync(path.join(tmpdir(), 'gateway-budget-'));
let jwks: Awaited<ReturnType<typeof startJwks>>;

/** How identity's budget endpoint behaves: answering late (past the gateway's wait), or 503 while it restarts. */
let budgetAnswer: 'late' | 'restarting' = 'late';
let budgetCalls = 0;

beforeAll(async () => {
  for (const s of Object.values(upstream)) await s.start();
  jwks = await startJwks([key]);
  upstream.identity.handler = (req, res, body) => {
    const tokenId = req.url === '/internal/api-tokens/exchange' ? tokenIdOf((JSON.parse(body.toString()) as { token: string }).token) : '';
    if (req.url === '/internal/api-tokens/exchange') {
      const claims = { sub: 'user-7', sid: tokenId, scope: 'read' } as TokenClaims;
      return json(res, 200, { accessToken: signToken(key, claims), expiresIn: 120, tokenId, userId: '0b5f6f7e-3c1a-4d2b-9e8f-1a2b3c4d5e6f', scope: 'read' });
    }
    if (req.url === '/internal/request-budget') {
      budgetCalls++;
      if (budgetAnswer === 'restarting') return json(res, 503, { error: { code: 'service/unavailable', message: 'starting' } });
      setTimeout(() => json(res, 200, { granted: 100, retryAfterMs: 0 }), 1_500);
      return;
    }
    json(res, 404, {});
  };
});

/** A fresh replica (it remembers for a while that identity could not count). */
const startReplica = () =>
  startGateway(gatewaySettings({ upstream, identity: jwks, dir: tmp }, { REQUESTS_PER_MINUTE_PER_PERSON: '3', REQUEST_BUDGET_TIMEOUT_MS: '200' }));

afterAll(async () => {
  for (const s of Object.values(upstream)) await s.stop();
  await jwks?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A well-formed personal token whose id is `n` (the fake identity accepts any). */
const tokenNumbered = (n: number) => `ftpat_${n.toString(16).padStart(32, '0')}_${'A'.repeat(43)}`;
function tokenIdOf(token: string): string {
  const hex = token.slice(6, 38);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

async function read(base: string, token: string): Promise<{ status: number; ms: number; retryAfter: string | null; body: { error?: { code: string; message: string } } }> {
  const started = Date.now();
  const res = await fetch(`${base}/api/getUserData`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { error?: { code: string; message: string } } };
}

it.each(['late', 'restarting'] as const)('identity %s: the budget is counted by this replica, requests within it pass, the next gets the usual 429', async (mode) => {
  budgetAnswer = mode;
  budgetCalls = 0;
  const { gateway, server, base } = await startReplica();
  const token = tokenNumbered(mode === 'late' ? 1 : 2);
  const first = await read(base, token);
  expect(first.status).toBe(200);
  // It waited at most REQUEST_BUDGET_TIMEOUT_MS for identity, not the 1.5 s identity took.
  expect(first.ms).toBeLessThan(1_200);
  expect((await read(base, token)).status).toBe(200);
  expect((await read(base, token)).status).toBe(200);
  const refused = await read(base, token);
  expect(refused.status).toBe(429);
  expect(refused.retryAfter).toMatch(/^\d+$/);
  expect(refused.body.error).toEqual(expect.objectContaining({ code: 'gateway/rate-limited', message: rateLimitedMessage(3, Number(refused.retryAfter)) }));
  // While identity cannot count, the replica does not ask it again on every request.
  expect(budgetCalls).toBe(1);
  await server.close();
  await gateway.close();
});
