// Videos by link: a generated video served by a local web server is given as an https-style address
// (inputUri of POST /v1/videos:annotate, with a personal API token through the gateway), fetched by the upload
// service with the real yt-dlp through its vetting proxy, and read like an upload of the same file: the same text,
// the same charge. Links that cannot be fetched (missing, not a video, over a cap, a private address) end the upload
// failed with their reason and give the hold back; a link of the wrong form is refused at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSlidesVideo, type GeneratedVideo } from '@frametext/sample-media';
import { useStack } from '../support/use-stack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'video-links-'));
/** The stack's caps for videos by link: the slides fit, the long and big files do not. */
const MAX_SECONDS = 20;
const MAX_BYTES = 1_000_000;

let slides: GeneratedVideo;
let slidesBytes: Buffer;
let longBytes: Buffer;
/** Released by the test once it has seen the slow fetch in progress. */
let releaseSlow: () => void = () => undefined;
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

const server = http.createServer((req, res) => {
  const video = (body: Buffer) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length }).end(body);
  switch (req.url) {
    case '/slides.mp4':
      return video(slidesBytes);
    case '/long.mp4':
      return video(longBytes);
    case '/big.mp4':
      // A video's first bytes, then far more than the cap: the size is declared, so yt-dlp stops before fetching it.
      return video(Buffer.concat([slidesBytes, Buffer.alloc(MAX_BYTES * 2)]));
    case '/endless.mp4': {
      // No size declared: the bytes keep coming until the fetch is cut off by the byte count of the upload's proxy.
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(slidesBytes.subarray(0, 64));
      const chunk = Buffer.alloc(256 * 1024);
      const more = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on('drain', more);
      res.on('close', () => res.off('drain', more));
      return more();
    }
    case '/slow.mp4':
      // Half the video, then the rest once the test has seen the fetch in progress.
      if (req.method === 'HEAD') return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': slidesBytes.length }).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': slidesBytes.length });
      res.write(slidesBytes.subarray(0, slidesBytes.length >> 1));
      return void slowReleased.then(() => res.end(slidesBytes.subarray(slidesBytes.length >> 1)));
    case '/page.html':
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>No video here</title><p>Just words.</p>');
    default:
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});
let origin = '';

beforeAll(async () => {
  slides = await makeSlidesVideo({ dir, slides: [['WELCOME'], ['FRAMETEXT'], ['GOODBYE']], secondsPerSlide: 2, width: 640, height: 360, name: 'slides.mp4' });
  slidesBytes = await readFile(slides.path);
  const long = await makeSlidesVideo({ dir, slides: [['LONG'], ['VIDEO']], secondsPerSlide: 15, width: 320, height: 180, fps: 5, name: 'long.mp4' });
  longBytes = await readFile(long.path);
  expect(slidesBytes.length).toBeLessThan(MAX_BYTES);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  releaseSlow();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

// The local server is allowed the way webhooks' receivers are in tests: its loopback name is listed.
const stack = useStack({ VIDEO_LINK_LOCAL_HOSTS: '127.0.0.1', VIDEO_LINK_MAX_SECONDS: String(MAX_SECONDS), VIDEO_LINK_MAX_BYTES: String(MAX_BYTES) });

async function personWithToken() {
  const person = await stack.signUp();
  const res = await stack.api('POST', '/auth/api-tokens', { name: 'video links', scope: 'upload', password: person.password }, person.token);
  expect(res.status).toBe(201);
  return { ...person, apiToken: res.body.token as string };
}

async function annotate(token: string, body: Record<string, unknown>) {
  const res = await fetch(`${stack.base}/v1/videos:annotate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ features: ['TEXT_DETECTION'], ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const uploadIdOf = (operationName: string) => operationName.split('/').at(-1)!;

/** Polls the upload's status until `done` says so; answers every status seen on the way. */
async function statusUntil(token: string, uploadId: string, done: (data: any) => boolean): Promise<any[]> {
  const seen: any[] = [];
  for (;;) {
    const res = await stack.api('GET', `/checkUploadStatus/${uploadId}`, undefined, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(res.body.data);
    if (done(res.body.data)) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finished = (d: any) => d.status === 'processed' || d.status === 'failed';

async function credits(token: string): Promise<number> {
  return (await stack.api('GET', '/getUserData', undefined, token)).body.credits as number;
}

/** Waits until the balance is back at `expected` (billing releases a hold when it handles upload.failed.v1). */
async function creditsBackTo(token: string, expected: number): Promise<void> {
  while ((await credits(token)) !== expected) await new Promise((r) => setTimeout(r, 100));
}

const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toUpperCase();

describe('videos by link', () => {
  let owner: Awaited<ReturnType<typeof personWithToken>>;
  beforeAll(async () => {
    owner = await personWithToken();
  });

  it('fetches a linked video, shows the fetch in progress, and reads it like the same file uploaded', async () => {
    const before = await credits(owner.apiToken);
    const started = performance.now();
    const res = await annotate(owner.apiToken, { inputUri: `${origin}/slow.mp4` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const uploadId = uploadIdOf(res.body.name);

    // Half the file is in: the upload says it is downloading, with the bytes so far.
    try {
      const fetching = await statusUntil(owner.apiToken, uploadId, (d) => d.status === 'downloading' && d.download?.bytes > 0);
      expect(fetching.at(-1)).toMatchObject({ status: 'downloading', framesTotal: null, download: { bytes: expect.any(Number) } });
    } finally {
      releaseSlow();
    }
    const seen = await statusUntil(owner.apiToken, uploadId, finished);
    const byLinkMs = Math.round(performance.now() - started);
    const last = seen.at(-1);
    expect(last, JSON.stringify(last)).toMatchObject({ status: 'processed', charged: { framesRead: slides.durationSeconds } });

    // The text on screen, each with its time, as the operation answers it.
    const op = await fetch(`${stack.base}/v1/${res.body.name}`, { headers: { authorization: `Bearer ${owner.apiToken}` } }).then((r) => r.json() as Promise<any>);
    expect(op.done).toBe(true);
    const annotations: any[] = op.response.annotationResults[0].textAnnotations;
    for (const truth of slides.truth) expect(annotations.map((a) => words(a.text))).toContain(truth.texts[0]);

    // The same file sent inline: the same frames read and the same charge.
    const inline = await annotate(owner.apiToken, { inputContent: slidesBytes.toString('base64') });
    expect(inline.status).toBe(200);
    const inlineStarted = performance.now();
    const inlineSeen = await statusUntil(owner.apiToken, uploadIdOf(inline.body.name), finished);
    const inlineMs = Math.round(performance.now() - inlineStarted);
    expect(inlineSeen.at(-1).charged).toEqual(last.charged);
    await creditsBackTo(owner.apiToken, before - 2 * last.charged.credits);
    console.info(`video by link: ${slidesBytes.length} bytes, ${slides.durationSeconds} s, fetched and read in ${byLinkMs} ms (the same file inline: ${inlineMs} ms)`);
  });

  it.each([
    ['a missing file', '/missing.mp4', 'link/not-found', /Nothing was found at this link/],
    ['a page with no video', '/page.html', 'link/not-a-video', /no video FrameText can fetch/],
    ['a video longer than the cap', '/long.mp4', 'link/too-long', /lasts 30 s, which is longer than 20 s/],
    ['a file larger than the cap', '/big.mp4', 'link/too-big', /larger than 1\.0 MB/],
    ['a file that never ends', '/endless.mp4', 'link/too-big', /larger than 1\.0 MB/],
  ])('ends with the reason and gives the credits back: %s', async (_what, route, _code, reason) => {
    const before = await credits(owner.apiToken);
    const res = await annotate(owner.apiToken, { inputUri: `${origin}${route}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const uploadId = uploadIdOf(res.body.name);
    const last = (await statusUntil(owner.apiToken, uploadId, finished)).at(-1);
    expect(last.status).toBe('failed');
    expect(last.failureReason).toMatch(reason);
    await creditsBackTo(owner.apiToken, before);
    // The operation says the same.
    const op = await fetch(`${stack.base}/v1/${res.body.name}`, { headers: { authorization: `Bearer ${owner.apiToken}` } }).then((r) => r.json() as Promise<any>);
    expect(op).toMatchObject({ done: true, error: { message: last.failureReason } });
  });

  it('refuses to fetch from a private address: the upload fails with why, and the credits come back', async () => {
    const before = await credits(owner.apiToken);
    // An address on the private network: never connected to.
    const res = await annotate(owner.apiToken, { inputUri: 'https://10.255.255.1/video.mp4' });
    expect(res.status).toBe(200);
    const last = (await statusUntil(owner.apiToken, uploadIdOf(res.body.name), finished)).at(-1);
    expect(last).toMatchObject({ status: 'failed' });
    expect(last.failureReason).toBe('This link cannot be fetched: 10.255.255.1 points at a private or reserved address (10.255.255.1); video links go to public addresses only.');
    await creditsBackTo(owner.apiToken, before);
  });

  it('refuses a link of the wrong form at once, saying what to fix', async () => {
    const notHttps = await annotate(owner.apiToken, { inputUri: 'http://example.com/video.mp4' });
    expect(notHttps.status).toBe(400);
    expect(notHttps.body.error.message).toBe('The video link cannot be used. The address must start with https://.');
    const ftp = await annotate(owner.apiToken, { inputUri: 'ftp://example.com/video.mp4' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.message).toMatch(/^inputUri must be a video's https:\/\/ address/);
    const withPassword = await annotate(owner.apiToken, { inputUri: 'https://user:secret@example.com/video.mp4' });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.error.message).toMatch(/user name or password/);

    // getUploadURL's youtubeLink: a watch, embed or short link with an 11-character id, else a 400 that shows the forms.
    const request = { isVideo: true, uploadName: 'By link', ocrType: 'server', targetFrameRate: 1 };
    for (const youtubeLink of ['not a link', 'https://www.youtube.com/watch?v=short', 'https://vimeo.com/76979871']) {
      const res = await stack.api('POST', '/getUploadURL', { ...request, youtubeLink }, owner.apiToken);
      expect(res.status, youtubeLink).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'upload/unsupported-link', message: expect.stringMatching(/^Paste a YouTube video link: a watch, embed or short link/) });
    }
  });
});
