import { openAsBlob } from 'node:fs';
import { ApiError, CliError, UsageError } from './errors.js';
import { DEFAULT_URL, type Environment } from './config.js';
import type { Connection } from './options.js';

/*
 * FrameText's public HTTP API as the CLI uses it: every call under /api with `Authorization: Bearer <token>`, every
 * error answer turned into an ApiError carrying the API's own message (`{ error: { code, message } }`).
 */

export class FrameTextApi {
  constructor(
    /** The address without a trailing slash, e.g. http://localhost:8080. */
    readonly base: string,
    private readonly token: string,
  ) {}

  /** The API a command talks to: flags first, then the environment; a missing token or a bad address is a usage error. */
  static connect(given: Connection, env: Environment): FrameTextApi {
    const address = given.url ?? env.url ?? DEFAULT_URL;
    const url = URL.canParse(address) ? new URL(address) : undefined;
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
      throw new UsageError(`${given.url ? '--url' : 'FRAMETEXT_URL'} must be FrameText's http(s) address, such as ${DEFAULT_URL} (got "${address}")`);
    }
    const token = given.token ?? env.token;
    if (!token) {
      throw new UsageError('no API token: set FRAMETEXT_TOKEN=ftpat_... (create one on the Account page, under API tokens) or pass --token');
    }
    return new FrameTextApi(url.href.replace(/\/+$/, ''), token);
  }

  /** Calls `path` (after /api) and answers the response, or throws ApiError for an error status. */
  async request(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await this.send(`${this.base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw await apiError(res);
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.request(method, path, body)).json()) as T;
  }

  /** PUTs a file to an upload address the API gave (absolute, or relative to the API's address). */
  async putFile(address: string, file: string, contentType: string): Promise<void> {
    const res = await this.send(new URL(address, `${this.base}/`).href, { method: 'PUT', headers: { 'content-type': contentType }, body: await openAsBlob(file) });
    if (!res.ok) throw await apiError(res);
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError(`cannot reach FrameText at ${this.base} (${why}). Is it running? Set FRAMETEXT_URL or --url to its address.`);
    }
  }
}

/** The API's error body as an ApiError; a body that is not one (a proxy's page) still gives the status. */
async function apiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let code = `http/${res.status}`;
  let message = `FrameText answered ${res.status} ${res.statusText}`.trim();
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
    if (typeof body.error?.code === 'string') code = body.error.code;
  } catch {
    /* not the API's JSON */
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  return new ApiError(res.status, code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
}
