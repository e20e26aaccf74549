import type { PublicConfig } from '@frametext/contracts';
import { vi } from 'vitest';

/*
 * The one fake gateway of the component tests: fetch answers "METHOD /api/path" from a table of handlers, every
 * request is recorded, and GET /api/config (and the e-mail confirmation, as confirmed) answer a working default unless a
 * test replaces them.
 */

/** Node's Request refuses relative URLs and jsdom's AbortSignal; the SPA's fetches are relative to the page. */
export class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, { ...init, signal: undefined });
  }
}

export const json = (body: unknown, status = 200) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type Handler = (request: Request) => Response | Promise<Response>;

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Public settings as GET /api/config answers them, with both engines usable. */
export const testConfig: PublicConfig = {
  freeCredits: 50,
  purchases: 'simulated',
  engines: [
    { engine: 'cloud', available: false, reason: 'No Google Cloud Vision key is configured.', creditsPerFrame: 1, framesPerCredit: 1 },
    { engine: 'server', available: true, reason: null, creditsPerFrame: 0.1, framesPerCredit: 10 },
    { engine: 'local', available: true, reason: null, creditsPerFrame: 0.05, framesPerCredit: 20 },
  ],
  maxFrames: 360,
  localMaxFrames: 200,
  frameIntervals: [15],
  defaultFrameInterval: 15,
  localScanIntervals: [5],
  defaultLocalScanInterval: 5,
  creditPacks: [
    { credits: 100, priceCents: 100 },
    { credits: 500, priceCents: 500 },
    { credits: 2500, priceCents: 2000 },
  ],
  retentionDays: 30,
};

/** Stubs fetch (and Request) for this test; undo with vi.unstubAllGlobals() in afterEach. */
export function fakeGateway(routes: Record<string, Handler> = {}) {
  vi.stubGlobal('Request', PageRequest);
  const calls: Call[] = [];
  const requests: Request[] = [];
  const table: Record<string, Handler> = {
    'GET /api/config': () => json(testConfig),
    // A signed-in person whose e-mail is confirmed: no banner asks them to, unless a test says otherwise.
    'GET /api/auth/email-confirmation': () => json({ email: 'ada@example.com', confirmed: true }),
    ...routes,
  };
  // RTK Query calls fetch(request); the session refresh calls fetch(url, init), as code outside RTK Query may.
  const fetchMock = vi.fn(async (input: Request | string, init?: RequestInit) => {
    const request = typeof input === 'string' ? new PageRequest(input, init) : input;
    requests.push(request);
    const path = new URL(request.url).pathname;
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    calls.push({ method: request.method, path, body: text ? (JSON.parse(text) as unknown) : undefined });
    const handler = table[`${request.method} ${path}`];
    return handler ? handler(request) : json({ error: { code: 'not-found', message: `No route ${request.method} ${path}` } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, requests, fetchMock, count: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).length };
}
