// The public API as a browser or a script calls it, through the gateway at `base`: sign up and confirm the e-mail,
// upload a video, follow it to its end, read credits and results. Calls that meet a gateway that is restarting are
// retried.
import { readFile } from 'node:fs/promises';
import { uniqueName } from '@frametext/service-kit/testing';
import { confirmEmail } from '../../scripts/lib/mailbox.mjs';
import { followUpload, type UploadStatus } from './upload-status.js';

export type { UploadStatus } from './upload-status.js';

export interface ApiAnswer {
  status: number;
  // Tests read answer bodies field by field and let their assertions say what is wrong.
  body: any;
}

export interface ApiClient {
  call(method: string, route: string, body?: unknown, token?: string): Promise<ApiAnswer>;
  signUp(): Promise<{ token: string; email: string }>;
  credits(token: string): Promise<number>;
  /** getUploadURL, the PUT of the bytes and uploadComplete; answers the upload id. */
  uploadVideo(token: string, file: string, request: Record<string, unknown>): Promise<string>;
  status(token: string, uploadID: string): Promise<UploadStatus | undefined>;
  /** Polls the status until `done` says so (default: processed or failed). */
  waitFor(token: string, uploadID: string, done?: (s: UploadStatus) => boolean, timeoutMs?: number): Promise<UploadStatus>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ApiClientOptions {
  /** The messages of identity's mailbox now (.eml texts, oldest first): signUp confirms the e-mail from it. */
  mail: () => Promise<string[]>;
}

export function apiClient(base: string, opts: ApiClientOptions): ApiClient {
  async function call(method: string, route: string, body?: unknown, token?: string): Promise<ApiAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${base}/api${route}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        // A service being restarted answers 503 through the gateway: what a person would retry too.
        if ((res.status === 503 || res.status === 502) && attempt < 60) {
          await sleep(500);
          continue;
        }
        // Past the person's request budget (the tests poll faster than a person): wait as long as the gateway says.
        if (res.status === 429 && res.headers.get('retry-after') && attempt < 60) {
          await sleep(Number(res.headers.get('retry-after')) * 1000);
          continue;
        }
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      } catch (err) {
        if (attempt >= 60) throw err;
        await sleep(500);
      }
    }
  }

  const client: ApiClient = {
    call,
    async signUp() {
      const email = `${uniqueName('user')}@example.com`;
      const res = await call('POST', '/auth/signup', { email, password: 'fault-tests-pass-1' });
      if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.idToken as string;
      // The free credits come once the address is confirmed by the mailed link.
      await confirmEmail(base, email, opts.mail, 60_000);
      for (let i = 0; i < 200 && (await client.credits(token)) === 0; i++) await sleep(100);
      return { token, email };
    },
    async credits(token) {
      return (await call('GET', '/getUserData', undefined, token)).body.credits as number;
    },
    async uploadVideo(token, file, request) {
      const res = await call('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', ocrType: 'server', ...request }, token);
      if (res.status !== 200) throw new Error(`getUploadURL: ${res.status} ${JSON.stringify(res.body)}`);
      const put = await fetch(res.body.urls[0], { method: 'PUT', body: await readFile(file), headers: { 'content-type': 'video/mp4' } });
      if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
      const done = await call('POST', '/uploadComplete', { uploadID: res.body.uploadID }, token);
      if (done.status !== 200) throw new Error(`uploadComplete: ${done.status} ${JSON.stringify(done.body)}`);
      return res.body.uploadID as string;
    },
    async status(token, uploadID) {
      const res = await call('GET', `/checkUploadStatus/${uploadID}`, undefined, token);
      return res.status === 200 ? (res.body.data as UploadStatus) : undefined;
    },
    waitFor(token, uploadID, done, timeoutMs = 240_000) {
      return followUpload(() => call('GET', `/checkUploadStatus/${uploadID}`, undefined, token), uploadID, { done, timeoutMs, intervalMs: 100 });
    },
  };
  return client;
}
