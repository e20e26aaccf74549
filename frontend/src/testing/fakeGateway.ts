import type { ErrorBody, PublicConfig } from '@frametext/contracts';
import { vi } from 'vitest';

/*
 * The one fake gateway of the component tests: fetch answers "METHOD /api/path" from a table of handlers, every
 * request is recorded, and GET /api/config (and the e-mail confirmation, as confirmed) answer a working default unless a
 * test replaces them. Handlers answer as the gateway does: `json(body, status)`, `noContent()`, and
 * `apiError(status, code, message)` for the error body every service writes. A route to another origin (a presigned
 * file address) is keyed by its whole address without the query: "GET http://files.test/results/a.txt".
 */

/** Node's Request refuses relative URLs and jsdom's AbortSignal; the SPA's fetches are relative to the page. */
export class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, { ...init, signal: undefined });
  }
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const noContent = () => new Response(null, { status: 204 });

/** An error as service-kit answers it: `{ error: { code, message, correlationId } }`. */
export const apiError = (status: number, code: string, message: string) => {
  const body: ErrorBody = { error: { code, message, correlationId: 'test-correlation-id' } };
  return json(body, status);
};

/** Answers one request; `body` is its JSON body, parsed (undefined when it has none). */
export type Handler = (request: Request, body: unknown) => Response | Promise<Response>;

export interface Call {
  method: string;
  /** The pathname, or for another origin the whole address without the query. */
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
    const url = new URL(request.url);
    const path = url.origin === window.location.origin ? url.pathname : `${url.origin}${url.pathname}`;
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    calls.push({ method: request.method, path, body });
    const handler = table[`${request.method} ${path}`];
    return handler ? handler(request, body) : apiError(404, 'request/not-found', `No route for ${request.method} ${path}.`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, requests, count: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).length };
}
