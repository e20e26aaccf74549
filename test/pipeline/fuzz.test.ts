// Hostile input against every public endpoint: the gateway's route table (read here, so a new route is fuzzed
// without anyone remembering to), /api/health and the /files presigned URLs, through the real gateway and services
// on the real Postgres and RabbitMQ. Each endpoint gets the same malformed variants, with and without a valid
// token. Every answer must be a 4xx (a 2xx where the variant is harmless, such as extra fields) with a JSON error
// body and no stack trace, never a 5xx; and none of them may hold the user's credits.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREDIT_PACK_SIZES } from '@frametext/contracts';
import { socketRequest, type SocketAnswer } from '@frametext/service-kit/testing';
import { ROUTES, type Method } from '../../services/gateway/src/routes.js';
import type { PipelineStack } from '../support/pipeline-stack.js';
import { useStack } from '../support/use-stack.js';

// ---------------------------------------------------------------- the endpoints

/**
 * The endpoints behind the table's wildcard entries, which the table cannot list. A wildcard entry missing here
 * fails the suite, so a new service area is not left out silently.
 */
const WILDCARD_ENDPOINTS: Record<string, [Method, string][]> = {
  '/api/auth/*': [
    ['GET', 'jwks.json'],
    ['GET', 'providers'],
    ['POST', 'signup'],
    ['POST', 'login'],
    ['POST', 'refresh'],
    ['POST', 'logout'],
    ['POST', 'delete-account'],
    ['POST', 'delete-account/proof'],
    ['POST', 'password-reset'],
    ['POST', 'password-reset/confirm'],
    ['POST', 'password-change'],
    ['GET', 'reauthentication'],
    ['GET', 'email-confirmation'],
    ['POST', 'email-confirmation'],
    ['POST', 'email-confirmation/confirm'],
    ['GET', 'google/start'],
    ['GET', 'google/callback'],
    ['GET', 'api-tokens'],
    ['POST', 'api-tokens'],
    ['DELETE', 'api-tokens/:id'],
  ],
};

/** Browser pages, not API calls: their right answers include HTML error pages and redirects. */
const PAGES = new Set(['GET /api/simulated-checkout/:id', 'POST /api/simulated-checkout/:id/pay', 'GET /api/auth/google/start', 'GET /api/auth/google/callback']);

/** Routes whose body the service reads raw (Stripe signs the bytes), not through the kit's JSON parser. */
const RAW_BODY = new Set(['POST /api/stripe/webhook']);
/** Refusals of a request that is not valid HTTP/1.1, answered by the server before routing (its path unknown). */
const HTTP_LEVEL_REFUSALS = new Set(['request/malformed', 'request/incomplete', 'request/headers-too-large']);

interface Endpoint {
  /** `POST /api/getUploadURL`: the method and the table's path. */
  name: string;
  method: string;
  path: string;
  /** Query string without `?` ('' for none). */
  query: string;
  /** A well-formed body to mutate (JSON unless `binary`). */
  body?: unknown;
  binary?: Buffer;
  contentType?: string;
  /** The gateway streams its body to a service (body clocks and limits apply), or a route reads it (/files PUT). */
  readsBody: boolean;
  /** A service parses the body with the kit's JSON parser, whose guard refuses text that cannot be stored. */
  parsesJson: boolean;
  page: boolean;
}

/** Well-formed requests to start each mutation from; a route not listed gets `{}` (POST) or nothing (GET). */
function baseRequests(userEmail: string): Record<string, { body?: unknown; query?: string; id?: string }> {
  return {
    'POST /api/auth/signup': { body: { email: `fuzz-${randomUUID()}@example.com`, password: 'fuzz-pass-123' } },
    'POST /api/auth/login': { body: { email: userEmail, password: 'not-the-password' } },
    'POST /api/auth/refresh': { body: { refreshToken: 'not-a-refresh-token' } },
    'POST /api/auth/logout': { body: { refreshToken: 'not-a-refresh-token' } },
    'POST /api/auth/delete-account': { body: { refreshToken: 'not-a-refresh-token', password: 'not-the-password' } },
    'POST /api/auth/delete-account/proof': { body: { refreshToken: 'not-a-refresh-token' } },
    'POST /api/auth/password-reset': { body: { email: 'nobody@example.com' } },
    'POST /api/auth/password-reset/confirm': { body: { token: 'not-a-reset-token', password: 'fuzz-pass-456' } },
    'GET /api/auth/google/callback': { query: 'code=abc&state=def' },
    'POST /api/auth/api-tokens': { body: { name: 'fuzz', scope: 'read', password: 'not-the-password' } },
    'POST /api/auth/password-change': { body: { currentPassword: 'not-the-password', newPassword: 'fuzz-pass-789' } },
    'POST /api/getUploadURL': {
      body: { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: 'clip.mp4', size: 1000, uploadName: 'Fuzz', duration: 15, targetFrameRate: 1 / 15, ocrType: 'server', mediaContent: 'numerical' },
    },
    'POST /api/uploadComplete': { body: { uploadID: randomUUID() } },
    'POST /api/logLocalUpload': { body: { uploadID: `local-${Date.now()}`, uploadName: 'Fuzz', duration: 10, targetFrameRate: 1 / 5, fileName: 'clip.mp4', ocrType: 'local' } },
    'POST /api/deleteUploads': { body: { uploads: [randomUUID()], deleteUploads: true } },
    'GET /api/getUploadDetails/demo': { query: 'mode=numerical' },
    'GET /api/getUploadDetails/:id': { query: 'mode=numerical' },
    'POST /api/create-checkout-session': { body: { credits: CREDIT_PACK_SIZES[0] } },
    'GET /api/checkout-sessions/:id': { id: `cs_sim_${'0'.repeat(48)}` },
    'GET /api/simulated-checkout/:id': { id: `cs_sim_${'0'.repeat(48)}` },
    'POST /api/simulated-checkout/:id/pay': { id: `cs_sim_${'0'.repeat(48)}`, body: {} },
    'POST /api/webhooks': { body: { url: 'https://example.com/fuzz' } },
    'POST /api/stripe/webhook': { body: { id: 'evt_fuzz', type: 'checkout.session.completed', data: { object: {} } } },
    // Four bytes that are no video: every variant is refused before an upload is made.
    'POST /v1/videos:annotate': { body: { inputContent: 'AAAA', features: ['TEXT_DETECTION'] } },
  };
}

function tableEndpoints(userEmail: string): Endpoint[] {
  const bases = baseRequests(userEmail);
  const out: Endpoint[] = [];
  for (const route of ROUTES) {
    const calls: [Method, string][] =
      route.methods === '*'
        ? (WILDCARD_ENDPOINTS[route.path] ?? []).map(([m, sub]) => [m, route.path.replace(/\*$/, sub)])
        : route.methods.map((m) => [m, route.path]);
    if (calls.length === 0) throw new Error(`${route.path} is a wildcard route: list the endpoints behind it in WILDCARD_ENDPOINTS`);
    for (const [method, pattern] of calls) {
      const name = `${method} ${pattern}`;
      const base = bases[name] ?? (method === 'GET' ? {} : { body: {} });
      out.push({
        name,
        method,
        // A parameter is a whole segment: `videos:annotate` is a literal.
        path: pattern.replace(/\/:[A-Za-z]+/g, () => `/${base.id ?? randomUUID()}`),
        query: base.query ?? '',
        body: base.body,
        contentType: base.body === undefined ? undefined : 'application/json',
        readsBody: true,
        parsesJson: !RAW_BODY.has(name),
        page: PAGES.has(name),
      });
    }
  }
  return out;
}

async function otherEndpoints(stack: PipelineStack): Promise<Endpoint[]> {
  const stored = `fuzz/${randomUUID()}/stored.jpg`;
  await stack.files.put(stored, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), { contentType: 'image/jpeg' });
  const get = new URL(await stack.files.presignGet(stored, { expiresIn: 600 }));
  const put = new URL(await stack.files.presignPut(`fuzz/${randomUUID()}/photo.jpg`, { contentType: 'image/jpeg', expiresIn: 600 }));
  const common = { parsesJson: false, page: false };
  return [
    { name: 'GET /api/health', method: 'GET', path: '/api/health', query: '', readsBody: false, ...common },
    { name: 'GET /files (presigned)', method: 'GET', path: get.pathname, query: get.search.slice(1), readsBody: false, ...common },
    {
      name: 'PUT /files (presigned)',
      method: 'PUT',
      path: put.pathname,
      query: put.search.slice(1),
      binary: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]),
      contentType: 'image/jpeg',
      readsBody: true,
      ...common,
    },
  ];
}

// ---------------------------------------------------------------- the variants

interface RawRequest {
  method: string;
  /** Path and query as they go on the request line (ASCII). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Half-close after writing: a body shorter than its Content-Length and no more coming. */
  end?: boolean;
  /** The whole request as bytes, for malformed HTTP (a token, if any, goes in `{auth}`). */
  raw?: string;
}

interface Variant {
  name: string;
  build(e: Endpoint): RawRequest;
  /** Whether the endpoint must refuse it (a 4xx); otherwise a 2xx is fine too. */
  refuse(e: Endpoint): boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Replaces every leaf of a JSON value (objects and arrays are walked). */
function mapLeaves(v: unknown, f: (leaf: Json) => Json): Json {
  if (Array.isArray(v)) return v.map((x) => mapLeaves(x, f));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapLeaves(x, f)]));
  return f(v as Json);
}

/** Changes every string of the body; a body without strings gets one, so the variant still carries its text. */
function withStrings(body: unknown, f: (s: string) => string): Json {
  const base = (body ?? {}) as Json;
  let found = false;
  const mapped = mapLeaves(base, (leaf) => {
    if (typeof leaf !== 'string') return leaf;
    found = true;
    return f(leaf);
  });
  return found || typeof mapped !== 'object' || mapped === null || Array.isArray(mapped) ? mapped : { ...mapped, note: f('text') };
}

/** Free-text fields (names, ids, e-mails, tokens): the strings a handler stores as they come. */
const TEXT_FIELD = /name|id$|email|token|password|^uploads$/i;

/**
 * Changes the strings of free-text fields only, so that the fields with fixed values (kind, mimeType...) stay valid
 * and the request gets as far as it can; a body without such fields has every string changed.
 */
function withTextFields(body: unknown, f: (s: string) => string): Json {
  let found = false;
  const walk = (v: unknown, key: string): Json => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (typeof v === 'string' && TEXT_FIELD.test(key)) {
      found = true;
      return f(v);
    }
    return v as Json;
  };
  const mapped = walk(body ?? {}, '');
  return found ? mapped : withStrings(body, f);
}

/** Replaces every number of the body (booleans and strings stay as they are). */
const withNumbers = (body: unknown, f: (n: number) => Json): Json => mapLeaves(body ?? {}, (leaf) => (typeof leaf === 'number' ? f(leaf) : leaf));

/** The calls whose every number (a length, a rate, a size) has a range: a body with any of them out of it is refused. */
const EVERY_NUMBER_CHECKED = new Set(['POST /api/getUploadURL', 'POST /api/logLocalUpload']);
const checksEveryNumber = (e: Endpoint) => EVERY_NUMBER_CHECKED.has(e.name);

const objectBody = (e: Endpoint): Record<string, Json> => (e.body && typeof e.body === 'object' && !Array.isArray(e.body) ? (e.body as Record<string, Json>) : {});

const target = (e: Endpoint, path = e.path, query = e.query) => (query ? `${path}?${query}` : path);

/** A request with `body` as the endpoint's content (JSON text, or the endpoint's bytes), overridable. */
function send(e: Endpoint, opts: { body?: string | Buffer; contentType?: string | null; headers?: Record<string, string>; method?: string; path?: string; query?: string } = {}): RawRequest {
  const body = opts.body ?? e.binary ?? (e.body === undefined ? undefined : JSON.stringify(e.body));
  const contentType = opts.contentType === null ? undefined : (opts.contentType ?? e.contentType ?? (body === undefined ? undefined : 'application/json'));
  return {
    method: opts.method ?? e.method,
    target: target(e, opts.path, opts.query),
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...opts.headers },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
  };
}

const json = (e: Endpoint, value: unknown) => send(e, { body: JSON.stringify(value), contentType: 'application/json' });
const always = () => true;
const never = () => false;
/** Refused where a service reads the body as JSON; elsewhere the bytes are ignored or are a file's. */
const whenJson = (e: Endpoint) => e.parsesJson;
const whenRead = (e: Endpoint) => e.readsBody;

/** The last segment of the path with `f` applied (the :id of an id route, the last word otherwise). */
function lastSegment(e: Endpoint, f: (segment: string) => string): string {
  const i = e.path.lastIndexOf('/');
  return `${e.path.slice(0, i + 1)}${f(e.path.slice(i + 1))}`;
}

const GZIP_BOMB = gzipSync(Buffer.alloc(8 * 1024 * 1024));

const VARIANTS: Variant[] = [
  // Shapes and types.
  { name: 'empty body', build: (e) => send(e, { body: '', contentType: 'application/json' }), refuse: never },
  { name: 'JSON null', build: (e) => json(e, null), refuse: whenJson },
  { name: 'JSON array', build: (e) => json(e, []), refuse: never },
  { name: 'JSON string', build: (e) => json(e, 'text'), refuse: whenJson },
  { name: 'JSON number', build: (e) => json(e, 42), refuse: whenJson },
  { name: 'missing fields', build: (e) => json(e, {}), refuse: never },
  { name: 'extra fields', build: (e) => json(e, { ...objectBody(e), unexpected: 'field', nested: { list: [1, 2, 3] } }), refuse: never },
  { name: 'numbers as strings', build: (e) => json(e, mapLeaves(e.body ?? {}, (l) => (typeof l === 'number' || typeof l === 'boolean' ? String(l) : l))), refuse: never },
  { name: 'strings as numbers', build: (e) => json(e, mapLeaves(e.body ?? {}, (l) => (typeof l === 'string' ? 12345 : l))), refuse: never },
  { name: 'nulls everywhere', build: (e) => json(e, mapLeaves(e.body ?? {}, () => null)), refuse: never },
  { name: 'objects for every field', build: (e) => json(e, mapLeaves(e.body ?? {}, () => ({ nested: { value: 1 } }))), refuse: never },
  // Numbers at and past their bounds, and number-like text: where every number is checked, each must be refused.
  { name: 'negative numbers', build: (e) => json(e, withNumbers(e.body, (n) => -Math.abs(n) - 1)), refuse: checksEveryNumber },
  { name: 'zero for every number', build: (e) => json(e, withNumbers(e.body, () => 0)), refuse: checksEveryNumber },
  { name: 'huge numbers', build: (e) => json(e, withNumbers(e.body, () => 1e308)), refuse: checksEveryNumber },
  { name: 'most negative numbers', build: (e) => json(e, withNumbers(e.body, () => -1e308)), refuse: checksEveryNumber },
  { name: 'tiniest numbers', build: (e) => json(e, withNumbers(e.body, () => 5e-324)), refuse: checksEveryNumber },
  { name: 'NaN as text for every number', build: (e) => json(e, withNumbers(e.body, () => 'NaN')), refuse: checksEveryNumber },
  { name: 'Infinity as text for every number', build: (e) => json(e, withNumbers(e.body, () => '-Infinity')), refuse: checksEveryNumber },
  { name: 'booleans for every number', build: (e) => json(e, withNumbers(e.body, () => true)), refuse: checksEveryNumber },
  { name: 'huge strings', build: (e) => json(e, withStrings(e.body, (s) => s + 'x'.repeat(100_000))), refuse: never },
  { name: 'huge array', build: (e) => json(e, { ...objectBody(e), list: Array.from({ length: 100_000 }, (_, i) => i % 10) }), refuse: never },
  { name: 'body over the size limit', build: (e) => json(e, { ...objectBody(e), padding: 'x'.repeat(2 * 1024 * 1024) }), refuse: (e) => e.readsBody && !e.binary },
  { name: 'deep nesting', build: (e) => send(e, { body: `{"deep": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`, contentType: 'application/json' }), refuse: whenJson },
  // Text that cannot be stored, and text that can.
  { name: 'NUL in every string', build: (e) => json(e, withStrings(e.body, (s) => `${s.slice(0, 1)}\u0000${s.slice(1)}`)), refuse: whenJson },
  { name: 'NUL in names and ids', build: (e) => json(e, withTextFields(e.body, (s) => `${s}\u0000`)), refuse: whenJson },
  { name: 'lone surrogate in names and ids', build: (e) => json(e, withTextFields(e.body, (s) => `\udfff${s}`)), refuse: whenJson },
  { name: 'NUL in a field name', build: (e) => json(e, { ...objectBody(e), 'na\u0000me': 'x' }), refuse: whenJson },
  { name: 'lone high surrogate', build: (e) => json(e, withStrings(e.body, (s) => `${s}\ud800`)), refuse: whenJson },
  { name: 'lone low surrogate', build: (e) => json(e, withStrings(e.body, (s) => `\udc00${s}`)), refuse: whenJson },
  { name: 'control characters', build: (e) => json(e, withStrings(e.body, (s) => `${s}\u0001\u0007\u001b[31m\u007f`)), refuse: never },
  {
    name: 'invalid UTF-8 bytes',
    build: (e) => {
      const text = JSON.stringify(withStrings(e.body, (s) => `${s}@@BYTES@@`)).split('@@BYTES@@');
      const bad = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xc0, 0x80]);
      return send(e, { body: Buffer.concat(text.flatMap((t, i) => (i === 0 ? [Buffer.from(t)] : [bad, Buffer.from(t)]))), contentType: 'application/json' });
    },
    refuse: never,
  },
  // Keys that pollute prototypes, and keys given twice.
  { name: '__proto__ key', build: (e) => send(e, { body: `{"__proto__": {"polluted": true}, ${JSON.stringify(objectBody(e)).slice(1)}`, contentType: 'application/json' }), refuse: whenJson },
  { name: 'constructor.prototype key', build: (e) => json(e, { ...objectBody(e), constructor: { prototype: { polluted: true } } }), refuse: whenJson },
  {
    name: 'duplicate keys',
    build: (e) => {
      const fields = Object.entries(objectBody(e));
      const first = fields.map(([k]) => `${JSON.stringify(k)}: {"first": true}`).join(', ');
      return send(e, { body: `{${first}${first ? ', ' : ''}${JSON.stringify(objectBody(e)).slice(1)}`, contentType: 'application/json' });
    },
    refuse: never,
  },
  // Content types and encodings.
  { name: 'text/plain content type', build: (e) => send(e, { contentType: 'text/plain' }), refuse: never },
  { name: 'no content type', build: (e) => send(e, { contentType: null }), refuse: never },
  { name: 'form body with NUL and pollution keys', build: (e) => send(e, { body: 'uploadName=a%00b&__proto__[polluted]=1', contentType: 'application/x-www-form-urlencoded' }), refuse: never },
  { name: 'multipart body', build: (e) => send(e, { body: '--b\r\nContent-Disposition: form-data; name="file"; filename="../../x"\r\n\r\n\u0000\r\n--b--\r\n', contentType: 'multipart/form-data; boundary=b' }), refuse: never },
  { name: 'UTF-16 charset', build: (e) => send(e, { contentType: 'application/json; charset=utf-16' }), refuse: (e) => e.parsesJson && e.body !== undefined },
  { name: 'gzip bomb', build: (e) => send(e, { body: GZIP_BOMB, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } }), refuse: (e) => e.readsBody && !e.binary },
  { name: 'gzip header on plain bytes', build: (e) => send(e, { headers: { 'content-encoding': 'gzip' }, body: '{"not": "gzip"}', contentType: 'application/json' }), refuse: (e) => e.parsesJson || RAW_BODY.has(e.name) },
  { name: 'unsupported encoding', build: (e) => send(e, { headers: { 'content-encoding': 'x-compress-9000' } }), refuse: (e) => e.parsesJson && e.body !== undefined },
  // Bodies that do not arrive as declared.
  { name: 'declared length larger than the body', build: (e) => ({ ...send(e, { body: '{"a":', headers: { 'content-length': '1000' } }), end: true }), refuse: whenRead },
  { name: 'stalled body', build: (e) => send(e, { body: '{"a":', headers: { 'content-length': '1000' } }), refuse: whenRead },
  { name: 'malformed chunked body', build: (e) => ({ ...send(e), raw: `${e.method} ${target(e)} HTTP/1.1\r\nHost: x\r\n{auth}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n` }), refuse: whenRead },
  { name: 'Content-Length with Transfer-Encoding', build: (e) => ({ ...send(e), raw: `${e.method} ${target(e)} HTTP/1.1\r\nHost: x\r\n{auth}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n` }), refuse: always },
  // Paths.
  { name: 'dot-dot segments', build: (e) => send(e, { path: `${e.path}/../../internal/revocations` }), refuse: always },
  { name: 'encoded dot-dot', build: (e) => send(e, { path: `${e.path}/%2e%2e/%2e%2e/internal/revocations` }), refuse: always },
  { name: 'double-encoded dot-dot', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}%252e%252e%252f%252e%252e%252finternal`) }), refuse: always },
  { name: 'NUL in the path', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}%00`) }), refuse: always },
  { name: 'encoded slashes in the last segment', build: (e) => send(e, { path: lastSegment(e, () => '..%2F..%2Finternal%2Frevocations') }), refuse: always },
  { name: 'backslashes', build: (e) => send(e, { path: lastSegment(e, (s) => `..%5C..%5C${s}`) }), refuse: always },
  { name: 'lone surrogate in the path', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}%ED%A0%80`) }), refuse: always },
  { name: 'broken percent-encoding in the path', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}%E0%A4%A%zz`) }), refuse: always },
  { name: 'long path', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}${'a'.repeat(6_000)}`) }), refuse: always },
  { name: 'non-ASCII id', build: (e) => send(e, { path: lastSegment(e, (s) => `${s}${encodeURIComponent('é😀')}`) }), refuse: always },
  // Queries.
  { name: 'NUL in the query', build: (e) => send(e, { query: `${e.query ? `${e.query}&` : ''}mode=a%00b` }), refuse: always },
  { name: 'prototype pollution in the query', build: (e) => send(e, { query: `${e.query ? `${e.query}&` : ''}__proto__=1&__proto__[polluted]=1&constructor[prototype][x]=1` }), refuse: always },
  { name: 'repeated query parameters', build: (e) => send(e, { query: `${e.query ? `${e.query}&` : ''}mode=numerical&mode=captions&id=1&id=2` }), refuse: never },
  { name: 'invalid UTF-8 in the query', build: (e) => send(e, { query: `${e.query ? `${e.query}&` : ''}q=%FF%FE%ED%A0%80` }), refuse: never },
  { name: 'long query', build: (e) => send(e, { query: `${e.query ? `${e.query}&` : ''}q=${'a'.repeat(8_000)}` }), refuse: never },
  { name: 'headers too large', build: (e) => send(e, { headers: { 'x-padding': 'a'.repeat(20_000) } }), refuse: always },
  // Headers used as values, and methods.
  { name: 'garbage bearer token', build: (e) => send(e, { headers: { authorization: `Bearer \u00ff\u00fe.${'x'.repeat(3000)}.\u00e9` } }), refuse: never },
  { name: 'made-up client address', build: (e) => send(e, { headers: { 'x-forwarded-for': `not-an-address ${'x'.repeat(5_000)}`, 'x-correlation-id': 'x'.repeat(500) } }), refuse: never },
  { name: 'made-up forwarded proto and host', build: (e) => send(e, { headers: { 'x-forwarded-proto': `javascript${'x'.repeat(1000)}`, 'x-forwarded-host': 'evil.example' } }), refuse: never },
  { name: 'wrong method', build: (e) => send(e, { method: 'DELETE' }), refuse: always },
];

// ---------------------------------------------------------------- sending and judging

function requestBytes(r: RawRequest, host: string, token: string | undefined): (string | Buffer)[] {
  const auth = token && !r.headers.authorization ? `Authorization: Bearer ${token}\r\n` : '';
  if (r.raw) return [Buffer.from(r.raw.replace('{auth}', auth), 'latin1')];
  const headers: Record<string, string> = { host, connection: 'close', ...r.headers };
  if (r.body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(r.body.length);
  const head = `${r.method} ${r.target} HTTP/1.1\r\n${auth}${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  return [Buffer.from(head, 'latin1'), ...(r.body ? [r.body] : [])];
}

interface Outcome {
  endpoint: Endpoint;
  variant: Variant;
  withToken: boolean;
  answer?: SocketAnswer;
  error?: string;
}

/** Where this checkout sits on disk: an answer naming it leaks a server path. */
const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
const STACK_TRACE = new RegExp(`\\n\\s+at |\\bat .+:\\d+:\\d+|node_modules|${CHECKOUT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|\\.[jt]s:\\d+`);

/** What is wrong with an answer, or undefined when nothing is. */
function problemWith(o: Outcome): string | undefined {
  const { answer, endpoint, variant } = o;
  if (!answer) return `no answer: ${o.error ?? 'unknown'}`;
  const { status, body, headers } = answer;
  if (STACK_TRACE.test(body)) return `a stack trace or a path in the answer`;
  if (status === 503 && endpoint.name === 'GET /api/health' && notReadyChecks(body) !== undefined) return undefined;
  if (status >= 500) return `a ${status}`;
  if (status >= 300 && status < 400 && !endpoint.page) return `a redirect (${status})`;
  if (status < 400 && variant.refuse(endpoint)) return `accepted (${status}) what must be refused`;
  if (status >= 400) {
    const isJson = /^application\/json/.test(headers['content-type'] ?? '');
    if (!isJson) return endpoint.page && /^text\/html/.test(headers['content-type'] ?? '') ? undefined : `a ${status} that is not JSON (${headers['content-type'] ?? 'no type'})`;
    try {
      const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; status?: unknown } };
      // The Google-compatible /v1 endpoints answer Google's error body: the HTTP status as code, and a status name.
      // A request that is not valid HTTP is refused by the server before any path is read: FrameText's body there.
      if (endpoint.name.includes(' /v1/') && !(typeof parsed.error?.code === 'string' && HTTP_LEVEL_REFUSALS.has(parsed.error.code))) {
        if (parsed.error?.code !== status || typeof parsed.error.status !== 'string' || typeof parsed.error.message !== 'string' || !parsed.error.message) return `a ${status} without Google's { error: { code, message, status } }`;
      } else if (typeof parsed.error?.code !== 'string' || typeof parsed.error.message !== 'string' || !parsed.error.message) return `a ${status} without { error: { code, message } }`;
    } catch {
      return `a ${status} whose body is not JSON`;
    }
  }
  return undefined;
}

/**
 * /api/health reads nothing from the request: a 503 there, with the system-health document, is the system's state
 * at that moment (a readiness check over its time limit on a loaded machine), not a verdict on the input. Answers
 * the checks that were not ok, or undefined when the body is not that document.
 */
function notReadyChecks(body: string): string | undefined {
  try {
    const health = JSON.parse(body) as { status?: unknown; services?: Record<string, { status: string; checks: Record<string, string> }> };
    if (health.status !== 'unavailable' || typeof health.services !== 'object') return undefined;
    return Object.entries(health.services)
      .filter(([, h]) => h.status !== 'ok')
      .map(([name, h]) => `${name}: ${h.status} ${JSON.stringify(h.checks)}`)
      .join('; ');
  } catch {
    return undefined;
  }
}

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

// ---------------------------------------------------------------- the suite

const stack = useStack({
  // The suite sends thousands of auth requests from one address: the per-address limit would answer most of them.
  RATE_LIMIT_IP_PER_MINUTE: '1000000',
  // Short body clocks, so stalled variants are answered quickly.
  API_BODY_TIMEOUT_MS: '400',
  STORAGE_BODY_IDLE_TIMEOUT_MS: '400',
});
let user: { token: string; email: string };
let endpoints: Endpoint[];
let healthStatus: number;
let creditsBefore: number;
const outcomes: Outcome[] = [];

const credits = async () => (await stack.api('GET', '/getUserData', undefined, user.token)).body.credits as number;

beforeAll(async () => {
  user = await stack.signUp();
  creditsBefore = await credits();
  endpoints = [...tableEndpoints(user.email), ...(await otherEndpoints(stack))];
  healthStatus = (await fetch(`${stack.base}/api/health`)).status;

  const host = new URL(stack.base).host;
  const jobs = endpoints.flatMap((endpoint) => VARIANTS.flatMap((variant) => [true, false].map((withToken) => ({ endpoint, variant, withToken }))));
  await pool(jobs, 12, async (job) => {
    const request = job.variant.build(job.endpoint);
    const outcome: Outcome = { ...job };
    try {
      outcome.answer = await socketRequest(stack.base, requestBytes(request, host, job.withToken ? user.token : undefined), { end: request.end });
    } catch (err) {
      outcome.error = err instanceof Error ? err.message : String(err);
    }
    outcomes.push(outcome);
  });

  const statuses: Record<string, number> = {};
  for (const o of outcomes) statuses[o.answer ? String(o.answer.status) : 'none'] = (statuses[o.answer ? String(o.answer.status) : 'none'] ?? 0) + 1;
  const notReady = outcomes.filter((o) => o.endpoint.name === 'GET /api/health' && o.answer?.status === 503);
  if (notReady.length > 0) console.log(`fuzz: /api/health answered 503 ${notReady.length} times while the suite ran: ${notReady.map((o) => notReadyChecks(o.answer!.body)).join(' | ')}`);
  console.log(
    `fuzz: ${endpoints.length} endpoints x ${VARIANTS.length} variants x 2 (with and without a token) = ${outcomes.length} requests; answers by status: ${JSON.stringify(statuses)}`,
  );
}, 240_000);

describe('hostile input', () => {
  it('reaches every route of the table, /api/health and /files, with at least 30 variants each', () => {
    const names = new Set(endpoints.map((e) => e.name));
    for (const route of ROUTES) expect([...names].some((n) => n.includes(` ${route.path.replace(/\*$/, '')}`)), route.path).toBe(true);
    expect(names).toContain('GET /api/health');
    expect(names).toContain('PUT /files (presigned)');
    expect(names).toContain('GET /files (presigned)');
    expect(VARIANTS.length).toBeGreaterThanOrEqual(30);
    expect(outcomes).toHaveLength(endpoints.length * VARIANTS.length * 2);
  });

  it('the system is healthy, so that a 5xx below is the input\'s doing', () => {
    expect(healthStatus).toBe(200);
  });

  it('answers every variant on every endpoint with a 4xx (or a 2xx where it is harmless), a JSON error body and no stack trace', () => {
    const failures = outcomes
      .map((o) => ({ o, problem: problemWith(o) }))
      .filter((x) => x.problem)
      .map(({ o, problem }) => `${o.endpoint.name} | ${o.variant.name} | ${o.withToken ? 'token' : 'no token'}: ${problem} ${o.answer ? o.answer.body.slice(0, 160) : ''}`);
    expect(failures).toEqual([]);
  });

  it('holds none of the user\'s credits: what a variant reserved is given back when it is refused, and a logged Local run is charged once', async () => {
    // The harmless variants of getUploadURL that were accepted did hold credits, as they should; fail them the way
    // a wrong file fails, which releases their hold, and the balance must come back to where it started.
    const accepted = outcomes.filter((o) => o.withToken && o.endpoint.name === 'POST /api/getUploadURL' && o.answer?.status === 200);
    for (const o of accepted) {
      const { uploadID, urls } = JSON.parse(o.answer!.body) as { uploadID: string; urls: string[] };
      await fetch(urls[0]!, { method: 'PUT', body: 'not a video', headers: { 'content-type': 'video/mp4' } });
      expect((await stack.api('POST', '/uploadComplete', { uploadID }, user.token)).status).toBe(400);
    }
    console.log(`fuzz: ${accepted.length} harmless getUploadURL variants were accepted; each was then failed with a wrong file, which gives its credits back`);
    // A Local run logged with the user's token is work done and paid for, once per upload id however often it is
    // logged again: every variant uses the same id, so the balance may be lower by exactly that one charge.
    const localRuns = outcomes.filter((o) => o.withToken && o.endpoint.name === 'POST /api/logLocalUpload' && o.answer?.status === 200);
    const localCharges = new Set(localRuns.map((o) => (JSON.parse(o.answer!.body) as { data: { creditCost: number } }).data.creditCost));
    expect(localCharges.size).toBeLessThanOrEqual(1);
    const localCharge = [...localCharges][0] ?? 0;
    console.log(`fuzz: ${localRuns.length} Local-run variants were accepted, charged ${localCharge} credit(s) once`);
    await expect.poll(credits, { timeout: 20_000 }).toBe(creditsBefore - localCharge);
  });
});
