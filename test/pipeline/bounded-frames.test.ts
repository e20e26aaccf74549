// A photo made to hold an OCR worker (7000 x 7000 pixels tiled with small digits, well under the
// 50 M pixel limit) was read for two Tesseract runs of 60 s and a retry wait, then failed as "took too long" and
// cost nothing. Now it is read scaled to the reading size, its reads stop once they used the frame's CPU budget, and
// the frame, read to its limit, is charged.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { creditCost } from '@frametext/contracts';
import { drawtext, ffmpeg, makePhotoSeries } from '@frametext/sample-media';
import { useStack } from '../support/use-stack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'frametext-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A small budget, so the test does not wait for the default 20 s of CPU.
const stack = useStack({ OCR_FRAME_CPU_BUDGET_MS: '1500' });

const credits = async (token: string): Promise<number> => (await stack.api('GET', '/getUserData', undefined, token)).body.credits;

/** A PNG of 6960 x 6984 pixels (48.6 M) tiled with rows of small digits: one 240 x 24 tile, 29 x 291 times. */
async function tiledDigits(): Promise<Buffer> {
  const file = path.join(dir, 'digits.png');
  const tile = drawtext({ text: '0123456789 4711 2023', x: 2, y: 4, size: 16, color: 'black' });
  await ffmpeg(['-f', 'lavfi', '-i', 'color=white:s=240x24', '-vf', `${tile},tile=29x291`, '-frames:v', '1', file]);
  return readFile(file);
}

async function uploadPhoto(token: string, image: Buffer, name: string, type: 'image/png' | 'image/jpeg'): Promise<string> {
  const files = [{ name, type, lastModified: Date.parse('2024-06-01T00:00:00Z') }];
  const res = await stack.api('POST', '/getUploadURL', { kind: 'photos', isVideo: false, mimeType: type, files, uploadName: name, ocrType: 'server', mediaContent: 'numerical' }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const put = await fetch(res.body.urls[0], { method: 'PUT', body: image, headers: { 'content-type': type } });
  expect(put.status).toBe(200);
  expect((await stack.api('POST', '/uploadComplete', { uploadID: res.body.uploadID }, token)).status).toBe(200);
  return res.body.uploadID;
}

describe('a frame made to hold an OCR worker', () => {
  it('is read to its CPU budget, at once and once, completes without text, and is charged as a frame read', { timeout: 240_000 }, async () => {
    const { token } = await stack.signUp();
    const before = await credits(token);
    const uploadID = await uploadPhoto(token, await tiledDigits(), 'digits.png', 'image/png');
    const final = await stack.untilUpload(token, uploadID);
    expect(final).toMatchObject({ status: 'processed', failureReason: null });
    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
    expect(details.results.ocrResults).toHaveLength(1);
    await expect.poll(() => credits(token), { timeout: 15_000 }).toBe(before - creditCost(1, 'server'));

    // The worker reads the next upload as before.
    const [meter] = await makePhotoSeries({ dir, photos: [{ name: 'meter.jpg', lines: ['Voltage 42.7'], capturedAt: new Date('2024-05-01T10:00:00Z') }] });
    const next = await uploadPhoto(token, await readFile(meter!.path), 'meter.jpg', 'image/jpeg');
    expect(await stack.untilUpload(token, next)).toMatchObject({ status: 'processed', failureReason: null });
    const text = (await stack.api('GET', `/getUploadDetails/${next}?mode=numerical`, undefined, token)).body.results.ocrResults[0].detections.map((d: { text: string }) => d.text).join(' ');
    expect(text).toContain('42.7');
  });
});
