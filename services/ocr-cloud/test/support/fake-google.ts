import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { OAuth2Client } from 'google-auth-library';
import type { GoogleAccess } from '../../src/data/google-auth.js';
import type { VisionImageResponse } from '../../src/domain/vision-text.js';

/*
 * A stand-in for Google's Cloud Vision and Cloud Translation REST APIs on 127.0.0.1, answering the requests the
 * real clients make (`POST /v1/images:annotate`, `POST /language/translate/v2`) with recorded-style answers:
 * each image gets the fixture registered for its bytes (an image it does not know has no text). Tests can make
 * the next calls fail with a status, as Google does (429, 503, 401...), and read what was asked.
 */

export const FIXTURE_NAMES = ['dashboard', 'rotated', 'captions-fr', 'empty', 'refused'] as const;
export type FixtureName = (typeof FIXTURE_NAMES)[number];

/** One of the hand-written Vision answers in test/fixtures/vision (JSON as Google sends it). */
export function visionFixture(name: FixtureName): VisionImageResponse {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/vision/${name}.json`, import.meta.url)), 'utf8')) as VisionImageResponse;
}

/** An auth client that always has the same token: no key file, no call to Google's token endpoint. */
export function fixedTokenAccess(token = 'test-access-token'): GoogleAccess & { on: true } {
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: token, expiry_date: Date.now() + 24 * 3_600_000 });
  return { on: true, authClient };
}

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

/** Google's error body for a status, with its usual wording. */
export function googleError(status: number, message?: string): { status: number; body: unknown } {
  const defaults: Record<number, string> = {
    401: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    403: 'Cloud Vision API has not been used in project 123456789 before or it is disabled.',
    429: "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'vision.googleapis.com'.",
    503: 'The service is currently unavailable.',
  };
  return { status, body: { error: { code: status, message: message ?? defaults[status] ?? `HTTP ${status}`, status: STATUS_NAMES[status] ?? 'UNKNOWN' } } };
}

export interface VisionCall {
  authorization: string | undefined;
  images: Buffer[];
  features: unknown[];
}

export interface TranslateCall {
  authorization: string | undefined;
  q: string[];
  target: string;
  source: string | undefined;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export class FakeGoogle {
  readonly visionCalls: VisionCall[] = [];
  readonly translateCalls: TranslateCall[] = [];
  /** Answers of the next Vision calls, taken first (status and body). */
  readonly visionFailures: { status: number; body: unknown }[] = [];
  readonly translateFailures: { status: number; body: unknown }[] = [];
  /** Translations by target language, then source text; an unknown text comes back as "[target] text". */
  readonly dictionary = new Map<string, Map<string, string>>();
  /** The language Translation reports having detected when no source is given. */
  detectedLanguage = 'fr';
  /** The answer for an image no test registered (frames cut by ffmpeg in pipeline tests); none: no text. */
  fallback: VisionImageResponse | FixtureName | undefined;
  /** While set, every Vision call is answered with this error status (after the queued failures). */
  visionDown: number | undefined;
  /** While set, Vision calls are recorded at once but answered only when this settles (a request in flight). */
  visionHeld: Promise<void> | undefined;
  private readonly answers = new Map<string, VisionImageResponse>();
  private server: Server | undefined;

  get url(): string {
    const address = this.server?.address();
    if (!address || typeof address === 'string') throw new Error('the fake Google server is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Vision will answer `response` for this exact image. */
  answer(image: Buffer, response: VisionImageResponse | FixtureName): void {
    this.answers.set(sha(image), typeof response === 'string' ? visionFixture(response) : response);
  }

  translate(target: string, pairs: Record<string, string>): void {
    const known = this.dictionary.get(target) ?? new Map<string, string>();
    for (const [from, to] of Object.entries(pairs)) known.set(from, to);
    this.dictionary.set(target, known);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'POST' && path === '/v1/images:annotate') {
      const requests = (body.requests ?? []) as { image?: { content?: string }; features?: unknown[] }[];
      this.visionCalls.push({ authorization: req.headers.authorization, images: requests.map((r) => Buffer.from(r.image?.content ?? '', 'base64')), features: requests.flatMap((r) => r.features ?? []) });
      if (this.visionHeld) await this.visionHeld;
      if (res.destroyed) return;
      const failure = this.visionFailures.shift() ?? (this.visionDown ? googleError(this.visionDown) : undefined);
      if (failure) return send(failure.status, failure.body);
      const fallback = typeof this.fallback === 'string' ? visionFixture(this.fallback) : (this.fallback ?? {});
      return send(200, { responses: requests.map((r) => this.answers.get(sha(Buffer.from(r.image?.content ?? '', 'base64'))) ?? fallback) });
    }
    if (req.method === 'POST' && path === '/language/translate/v2') {
      const q = (Array.isArray(body.q) ? body.q : [body.q]) as string[];
      const target = String(body.target);
      const source = typeof body.source === 'string' ? body.source : undefined;
      this.translateCalls.push({ authorization: req.headers.authorization, q, target, source });
      const failure = this.translateFailures.shift();
      if (failure) return send(failure.status, failure.body);
      const known = this.dictionary.get(target);
      return send(200, {
        data: {
          translations: q.map((text) => ({
            translatedText: known?.get(text) ?? `[${target}] ${text}`,
            ...(source ? {} : { detectedSourceLanguage: this.detectedLanguage }),
          })),
        },
      });
    }
    send(404, { error: { code: 404, message: `no such method: ${req.method} ${path}`, status: 'NOT_FOUND' } });
  }
}
