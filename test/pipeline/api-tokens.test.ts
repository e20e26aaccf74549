// Personal API tokens through the real gateway, identity and services: a script with a token uploads a
// video and reads its results as its owner does in the browser, within the token's scope, and a revoked token stops
// working within the gateway's stated bound.
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, makePhotoSeries } from '@frametext/sample-media';
import { useStack } from '../support/use-stack.js';

const REQUESTS_PER_MINUTE = 120;
const CACHE_MS = 5_000;
const dir = mkdtempSync(path.join(tmpdir(), 'api-tokens-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stack = useStack({ REQUESTS_PER_MINUTE_PER_PERSON: String(REQUESTS_PER_MINUTE), API_TOKEN_CACHE_MS: String(CACHE_MS) });

/** A signed-up person and a personal token of theirs with `scope`, made as the Account page makes it. */
async function personWithToken(scope: 'read' | 'upload') {
  const person = await stack.signUp();
  const res = await stack.api('POST', '/auth/api-tokens', { name: `script ${scope}`, scope, password: person.password }, person.token);
  expect(res.status).toBe(201);
  return { ...person, apiToken: res.body.token as string, tokenId: res.body.apiToken.id as string };
}

// Slow enough for the person's budget of REQUESTS_PER_MINUTE.
const follow = (token: string, uploadID: string) => stack.untilUpload(token, uploadID, { intervalMs: 1_500 });

describe('a script with an upload token', () => {
  it('uploads a generated video, follows it and reads its numbers; another person’s token sees none of it', async () => {
    const owner = await personWithToken('upload');
    const video = await makeChargerVideo({ dir, seconds: 6 });
    const url = await stack.api(
      'POST',
      '/getUploadURL',
      { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: 'charger.mp4', ocrType: 'server', uploadName: 'From a script', duration: video.durationSeconds, targetFrameRate: 1 / 3, mediaContent: 'numerical' },
      owner.apiToken,
    );
    expect(url.status).toBe(200);
    const uploadID = url.body.uploadID as string;
    expect((await fetch(url.body.urls[0], { method: 'PUT', body: await readFile(video.path), headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    expect((await stack.api('POST', '/uploadComplete', { uploadID }, owner.apiToken)).status).toBe(200);
    expect((await follow(owner.apiToken, uploadID)).status).toBe('processed');

    const details = await stack.api('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, owner.apiToken);
    expect(details.status).toBe(200);
    const frames = details.body.results.ocrResults as { t: number; detections: { text: string }[] }[];
    expect(frames.map((f) => f.t)).toEqual([0, 3]);
    const text = frames[0]!.detections.map((d) => d.text).join(' ');
    expect(text).toContain(chargerValues(0).battery);
    // The same list the owner's browser session sees.
    const listed = await stack.api('GET', '/getUploads', undefined, owner.apiToken);
    expect(listed.body.data.uploads.map((u: { id: string }) => u.id)).toEqual((await stack.api('GET', '/getUploads', undefined, owner.token)).body.data.uploads.map((u: { id: string }) => u.id));
    expect(listed.body.data.uploads[0]).toMatchObject({ id: uploadID, uploadName: 'From a script', status: 'processed' });

    const stranger = await personWithToken('upload');
    expect((await stack.api('GET', '/getUploads', undefined, stranger.apiToken)).body.data.uploads).toEqual([]);
    expect((await stack.api('GET', `/getUploadDetails/${uploadID}`, undefined, stranger.apiToken)).status).toBe(404);
    // Deleting it with their token deletes nothing of the owner's.
    await stack.api('POST', '/deleteUploads', { uploads: [uploadID], deleteUploads: true }, stranger.apiToken);
    expect((await stack.api('GET', `/getUploadDetails/${uploadID}`, undefined, owner.apiToken)).status).toBe(200);
  }, 180_000);
});

describe("the spec's upload request, exactly", () => {
  it('a photo series sent with isVideo false and its capture times, naming no files, gets one address per photo and is read in capture-time order', async () => {
    const owner = await personWithToken('upload');
    const photos = await makePhotoSeries({
      dir,
      photos: [
        { name: 'board-late.jpg', lines: ['Later board'], capturedAt: new Date('2024-05-01T10:20:00Z') },
        { name: 'board-early.jpg', lines: ['Earlier board'], capturedAt: new Date('2024-05-01T10:00:00Z') },
      ],
    });
    // Every field the spec's upload request has, as the spec gives them for photos; no `kind`, no `files`.
    const specRequest = {
      isVideo: false,
      timestamps: [Date.parse('2024-05-01T10:20:00Z'), Date.parse('2024-05-01T10:00:00Z')],
      sortPreference: 'timestamp',
      targetFrameRate: null,
      mimeType: 'image/jpeg',
      uploadName: 'Boards from a script',
      mediaContent: 'numerical',
      originalLanguage: null,
      targetLanguage: null,
      youtubeLink: null,
      ocrType: 'server',
    };
    const url = await stack.api('POST', '/getUploadURL', specRequest, owner.apiToken);
    expect(url.status).toBe(200);
    expect(url.body.urls).toHaveLength(2);
    const uploadID = url.body.uploadID as string;
    for (const [i, photo] of photos.entries()) {
      expect((await fetch(url.body.urls[i], { method: 'PUT', body: await readFile(photo.path), headers: { 'content-type': 'image/jpeg' } })).status).toBe(200);
    }
    expect((await stack.api('POST', '/uploadComplete', { uploadID }, owner.apiToken)).status).toBe(200);
    expect((await follow(owner.apiToken, uploadID)).status).toBe('processed');
    const details = await stack.api('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, owner.apiToken);
    expect(details.body.uploadData).toMatchObject({ uploadName: 'Boards from a script', isVideo: false, sortPreference: 'timestamp', mimeType: 'image/jpeg' });
    const texts = (details.body.results.ocrResults as { detections: { text: string }[] }[]).map((f) => f.detections.map((d) => d.text).join(' '));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Earlier');
    expect(texts[1]).toContain('Later');

    // Without capture times there is nothing to name the photos by: a 400 that says what to send.
    const { timestamps: _t, ...withoutTimes } = specRequest;
    const refused = await stack.api('POST', '/getUploadURL', withoutTimes, owner.apiToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("files must list each photo with its name, type and lastModified (or send timestamps: each photo's capture time)");
  }, 180_000);
});

describe('scopes', () => {
  it('a read token reads but cannot upload, delete or pay, and is told why', async () => {
    const person = await personWithToken('read');
    expect((await stack.api('GET', '/getUploads', undefined, person.apiToken)).status).toBe(200);
    expect((await stack.api('GET', '/getUserData', undefined, person.apiToken)).status).toBe(200);

    const upload = await stack.api('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: 'a.mp4', ocrType: 'server', duration: 6 }, person.apiToken);
    expect(upload.status).toBe(403);
    expect(upload.body.error).toMatchObject({ code: 'auth/api-token-scope', message: 'This token can only read; create one with the upload scope on your Account page.' });
    expect((await stack.api('POST', '/deleteUploads', { uploads: ['x'], deleteUploads: true }, person.apiToken)).status).toBe(403);

    const pay = await stack.api('POST', '/create-checkout-session', { credits: 1000 }, person.apiToken);
    expect(pay.status).toBe(403);
    expect(pay.body.error.code).toBe('auth/api-token-not-allowed');
    // Tokens cannot manage tokens.
    expect((await stack.api('POST', '/auth/api-tokens', { name: 'more', scope: 'upload' }, person.apiToken)).status).toBe(401);
  });

  it('an upload token cannot pay either', async () => {
    const person = await personWithToken('upload');
    expect((await stack.api('POST', '/create-checkout-session', { credits: 1000 }, person.apiToken)).body.error.code).toBe('auth/api-token-not-allowed');
  });
});

describe('refusals', () => {
  it('a made-up token answers 401 with a message a script can act on', async () => {
    const res = await stack.api('GET', '/getUploads', undefined, `ftpat_${'a'.repeat(32)}_${'B'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'auth/api-token-invalid', message: 'This API token was revoked or does not exist.' });
  });

  it(`a revoked token is refused within API_TOKEN_CACHE_MS (${CACHE_MS} ms), while the owner's session keeps working`, async () => {
    const person = await personWithToken('read');
    expect((await stack.api('GET', '/getUploads', undefined, person.apiToken)).status).toBe(200);
    expect((await stack.api('DELETE', `/auth/api-tokens/${person.tokenId}`, undefined, person.token)).status).toBe(204);
    const revokedAt = Date.now();
    let answer = await stack.api('GET', '/getUploads', undefined, person.apiToken);
    while (answer.status === 200 && Date.now() - revokedAt < CACHE_MS + 2_000) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await stack.api('GET', '/getUploads', undefined, person.apiToken);
    }
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(CACHE_MS + 500);
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe('This API token was revoked or does not exist.');
    expect((await stack.api('GET', '/getUploads', undefined, person.token)).status).toBe(200);
  });
});
