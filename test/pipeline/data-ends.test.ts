// Once an upload, or the account that owns it, is deleted, none of its text is
// left in any table of any service. The test reads what each upload leaves behind (its file name, its name, the
// words read from its frames, what its owner typed in a results view), deletes it, waits for the deletion to be
// done, then searches every text, JSON, array and byte column of every table of every service's schema.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeChargerVideo, makeSlidesVideo } from '@frametext/sample-media';
import type { VisionImageResponse } from '../../services/ocr-cloud/src/domain/vision-text.js';
import { startReceiver } from '../../services/results/test/support/receiver.js';
import { findText } from '../support/find-text.js';
import { useStack } from '../support/use-stack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'data-ends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Sent events stay in the outbox for their usual retention: what a deletion must remove at once, it removes itself.
// Webhooks may call the test's receiver on 127.0.0.1.
const stack = useStack({ WEBHOOK_LOCAL_HOSTS: '127.0.0.1', WEBHOOK_INTERVAL_MS: '200' });

/** A word no other upload of the stack has. */
const tagged = (word: string) => `${word}${randomBytes(3).toString('hex')}`;

type Signed = Awaited<ReturnType<typeof stack.signUp>>;

async function put(url: string, body: Buffer, type: string): Promise<void> {
  expect((await fetch(url, { method: 'PUT', body, headers: { 'content-type': type } })).status).toBe(200);
}

/** Uploads a video and waits until results says it ended (processed or failed). */
async function uploadVideo(user: Signed, file: string, fields: Record<string, unknown>): Promise<string> {
  const res = await stack.api('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', targetFrameRate: 1 / 3, ...fields }, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await put(res.body.urls[0], await readFile(file), 'video/mp4');
  expect((await stack.api('POST', '/uploadComplete', { uploadID: res.body.uploadID }, user.token)).status).toBe(200);
  expect((await stack.untilUpload(user.token, res.body.uploadID)).status).toBe('processed');
  return res.body.uploadID;
}

/** A photo upload whose file is not a photo: refused at uploadComplete, with a reason that names the file. */
async function uploadRefusedPhoto(user: Signed, fileName: string): Promise<string> {
  const file = path.join(dir, fileName);
  await writeFile(file, 'not a photo\n'.repeat(20));
  const files = [{ name: fileName, type: 'image/png', lastModified: Date.parse('2024-06-01T00:00:00Z') }];
  const res = await stack.api('POST', '/getUploadURL', { kind: 'photos', isVideo: false, mimeType: 'image/png', files, uploadName: 'Whiteboard', ocrType: 'server', mediaContent: 'numerical' }, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await put(res.body.urls[0], await readFile(file), 'image/png');
  expect((await stack.api('POST', '/uploadComplete', { uploadID: res.body.uploadID }, user.token)).status).toBe(400);
  expect((await stack.untilUpload(user.token, res.body.uploadID)).status).toBe('failed');
  return res.body.uploadID;
}

/** Work kept in the numerical view: one series, named by its owner. */
async function keepSeriesNamed(user: Signed, uploadID: string, seriesName: string): Promise<void> {
  const settings = { seriesName, numbersOnly: false, wordsToRemove: '', charactersToRemove: '', characterToSplit: '', keepSplitItem: 0 };
  const block = { id: 'b1', originalId: 'b1', locked: false, uniqueID: 1234, points: null, total: null, settings };
  const document = { version: 1, tracking: { similarity: 80, disappearance: 2, minSize: 0.01, confidence: 50 }, blocks: [block] };
  const res = await stack.api('PUT', `/uploads/${uploadID}/work/numerical`, { revision: 0, document }, user.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A webhook of the person's, to a receiver that answers 200: its deliveries are rows with the events' bodies. */
async function addWebhook(user: Signed) {
  const receiver = await startReceiver();
  expect((await stack.api('POST', '/webhooks', { url: receiver.url }, user.token)).status).toBe(201);
  return receiver;
}

/** Google's answer for a frame that shows one line of words (the fake Vision API gives it for every frame). */
function visionAnswer(words: string[]): VisionImageResponse {
  let x = 40;
  const read = words.map((word, i) => {
    const left = x;
    x += 30 * word.length + 20;
    const symbols = [...word].map((text, j) => (j === word.length - 1 ? { text, property: { detectedBreak: { type: i === words.length - 1 ? 'LINE_BREAK' : 'SPACE' } } } : { text }));
    return { boundingBox: { vertices: [{ x: left, y: 40 }, { x: left + 30 * word.length, y: 40 }, { x: left + 30 * word.length, y: 90 }, { x: left, y: 90 }] }, symbols, confidence: 0.98 };
  });
  return { fullTextAnnotation: { text: `${words.join(' ')}\n`, pages: [{ width: 1280, height: 720, blocks: [{ paragraphs: [{ words: read }] }] }] } };
}

/** Every place any needle is found, in every table of every service of the stack. */
const findAnywhere = (needles: readonly string[]) => findText(stack.db('results'), stack.schemas, needles);

/** Before the deletion the search finds each needle (so finding nothing afterwards means something). */
async function expectEachFound(needles: readonly string[]): Promise<void> {
  const hits = await findAnywhere(needles);
  for (const needle of needles) expect(hits.map((h) => h.needle), `${needle} before the deletion`).toContain(needle);
}

/** Waits until no table holds any needle; on a timeout the failure lists where they still were. */
async function expectFoundNowhere(needles: readonly string[]): Promise<void> {
  await expect.poll(() => findAnywhere(needles), { timeout: 30_000, interval: 500 }).toEqual([]);
}

describe('deleting uploads', () => {
  it('leaves none of their words, names or file names in any table, nor in webhook deliveries about them', async () => {
    const me = await stack.signUp();
    const receiver = await addWebhook(me);
    try {
      const fileStem = tagged('pelican-ledger-');
      const uploadName = tagged('Quarterly pelican review ');
      const refusedFile = tagged('walrus-minutes-');
      const seriesName = tagged('kept-series-');
      // Words Tesseract reads reliably, which no other test of this stack shows.
      const words = ['marmalade', 'observatory', 'lighthouse', 'orchestra'];
      const video = await makeSlidesVideo({ dir, name: `${fileStem}.mp4`, slides: [['Pelican marmalade', 'Tangerine observatory'], ['Walrus lighthouse', 'Cobalt orchestra']] });
      const read = await uploadVideo(me, video.path, { fileName: `${fileStem}.mp4`, uploadName, duration: video.durationSeconds, ocrType: 'server', mediaContent: 'presentation' });
      await keepSeriesNamed(me, read, seriesName);
      const refused = await uploadRefusedPhoto(me, `${refusedFile}.png`);
      // Each event went to the person's webhook; the failed one's reason names its file.
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
      const needles = [...words, fileStem, uploadName, refusedFile, seriesName];
      await expectEachFound(needles);

      const res = await stack.api('POST', '/deleteUploads', { uploads: [read, refused], deleteUploads: true }, me.token);
      expect(res.body.data.deleted.sort()).toEqual([read, refused].sort());
      // Done when results lists neither and the upload service has handled both upload.deleted.v1.
      expect((await stack.api('GET', '/getUploads', undefined, me.token)).body.data.uploads).toEqual([]);
      await expect.poll(() => stack.db('upload')('uploads').whereIn('id', [read, refused]).whereNotNull('deleted_at').count<{ n: number }[]>({ n: '*' }), { timeout: 10_000 }).toEqual([{ n: 2 }]);
      await expectFoundNowhere(needles);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});

describe('deleting an account', () => {
  it('leaves none of its uploads\' words, names or file names, nor its e-mail, in any table', async () => {
    const me = await stack.signUp();
    const receiver = await addWebhook(me);
    const fileStem = tagged('heron-accounts-');
    const uploadName = tagged('Heron dashboard ');
    const words = [tagged('quokka'), tagged('tangelo')];
    stack.google.fallback = visionAnswer(words);
    try {
      // Cloud AI: the words come from the (fake) Vision API, so they are the ocr-cloud worker's to forget too.
      const video = await makeChargerVideo({ dir, seconds: 6, name: `${fileStem}.mp4` });
      const uploadID = await uploadVideo(me, video.path, { fileName: `${fileStem}.mp4`, uploadName, duration: video.durationSeconds, ocrType: 'cloud', mediaContent: 'presentation' });
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
      const needles = [...words, fileStem, uploadName, me.email];
      await expectEachFound(needles);

      const res = await stack.api('POST', '/auth/delete-account', { refreshToken: me.refreshToken, password: me.password });
      expect(res.status).toBe(204);
      // Done when results, upload and billing have each handled user.deleted.v1, and the upload is gone.
      await expect.poll(async () => (await stack.db('results')('deleted_users').where({ user_id: me.uid }).first()) !== undefined, { timeout: 10_000 }).toBe(true);
      await expect.poll(async () => (await stack.db('upload')('deleted_users').where({ user_id: me.uid }).first()) !== undefined, { timeout: 10_000 }).toBe(true);
      await expect.poll(async () => (await stack.db('billing')('accounts').where({ user_id: me.uid }).first())?.closed_at ?? null, { timeout: 10_000 }).not.toBeNull();
      expect(await stack.db('results')('uploads').where({ id: uploadID }).first()).toBeUndefined();
      await expectFoundNowhere(needles);
    } finally {
      stack.google.fallback = undefined;
      await receiver.close();
    }
  }, 180_000);
});
