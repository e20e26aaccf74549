import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhotoSeries } from '@frametext/sample-media';
import { eventually } from '@frametext/service-kit/testing';
import { ocrText, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const at = (hh: number, mm: number) => new Date(Date.UTC(2024, 4, 1, hh, mm, 0));

/** Stores local files as the upload's photos (`uploads/<id>/photos/<index>.<ext>`) and answers the keys. */
async function storePhotos(uploadId: string, paths: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const [i, path] of paths.entries()) {
    const key = `uploads/${uploadId}/photos/${i}.${path.endsWith('.png') ? 'png' : 'jpg'}`;
    await h.putFile(key, path);
    keys.push(key);
  }
  return keys;
}

/** The first word Tesseract reads on each stored frame. */
async function firstWords(keys: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const key of keys) out.push((await ocrText(await h.storage.getBuffer(key))).trim().split(/\s+/)[0] ?? '');
  return out;
}

/** A valid PNG header that claims `size` x `size` pixels (a decompression bomb's shape), with almost no data. */
async function hugePng(size: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
  png.writeUInt32BE(size, 16);
  png.writeUInt32BE(size, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

describe('photos', () => {
  let paths: string[];
  const names = ['img10.jpg', 'IMG1.jpg', 'img2.jpg'];
  beforeAll(async () => {
    // Name order IMG1, img2, img10; capture order img10, IMG1, img2.
    const photos = await makePhotoSeries({
      dir: h.workDir,
      photos: [
        { name: 'img10.jpg', lines: ['CHARLIE'], capturedAt: at(10, 0) },
        { name: 'IMG1.jpg', lines: ['ALPHA'], capturedAt: at(10, 1) },
        { name: 'img2.jpg', lines: ['BRAVO'], capturedAt: at(10, 2) },
      ],
    });
    paths = photos.map((p) => p.path);
  });

  it('come out in EXIF capture order with sortPreference timestamp, timed from the first capture', async () => {
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, paths);
    // The browser's last-modified times say the opposite order: EXIF wins.
    const lastModified = [at(12, 3).getTime(), at(12, 2).getTime(), at(12, 1).getTime()];
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: names, timestamps: lastModified, sortPreference: 'timestamp', mimeType: 'image/jpeg' }));
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 60_000, 120_000]);
    expect(out.extracted!.frames[1]!.objectKey).toBe(`uploads/${uploadId}/frames/0000060000.jpg`);
    expect(out.extracted!.durationSeconds).toBeNull();
    expect(await firstWords(out.extracted!.frames.map((f) => f.objectKey))).toEqual(['CHARLIE', 'ALPHA', 'BRAVO']);
  });

  it('come out in natural name order with sortPreference name', async () => {
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, paths);
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: names, sortPreference: 'name', mimeType: 'image/jpeg' }));
    expect(await firstWords(out.extracted!.frames.map((f) => f.objectKey))).toEqual(['ALPHA', 'BRAVO', 'CHARLIE']);
    // Times stay distinct and increasing in frame order even when the captures are not.
    const times = out.extracted!.frames.map((f) => f.timestampMs);
    expect(times[0]).toBe(0);
    expect(times[1]).toBe(60_000);
    expect(times[2]).toBeGreaterThan(times[1]!);
  });

  it('fall back to the browser’s last-modified time when a photo has no EXIF capture time', async () => {
    const plain = join(h.workDir, 'plain.png');
    await sharp({ create: { width: 640, height: 360, channels: 3, background: '#fff' } }).png().toFile(plain);
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, [paths[1]!, plain]);
    // ALPHA was captured at 10:01; the PNG was last modified at 09:59, so it comes first.
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: ['IMG1.jpg', 'plain.png'], timestamps: [at(23, 0).getTime(), at(9, 59).getTime()], sortPreference: 'timestamp', mimeType: 'image/jpeg' }));
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 120_000]);
    expect(await firstWords([out.extracted!.frames[1]!.objectKey])).toEqual(['ALPHA']);
  });

  it('are turned upright by their EXIF orientation', async () => {
    const [rotated] = await makePhotoSeries({ dir: h.workDir, photos: [{ name: 'turned.jpg', lines: ['UPRIGHT TEXT'], capturedAt: at(8, 0), orientation: 6 }] });
    const stored = await sharp(rotated!.path).metadata();
    expect(stored.width).toBeLessThan(stored.height!); // the pixels are stored turned
    const uploadId = crypto.randomUUID();
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: await storePhotos(uploadId, [rotated!.path]), sortPreference: 'name', mimeType: 'image/jpeg' }));
    const frame = await h.storage.getBuffer(out.extracted!.frames[0]!.objectKey);
    const meta = await sharp(frame).metadata();
    expect(meta.width).toBeGreaterThan(meta.height!);
    expect(meta.orientation ?? 1).toBe(1);
    expect(await ocrText(frame)).toContain('UPRIGHT TEXT');
  });

  it('publish their events once when the same message is delivered twice', async () => {
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, paths);
    const duplicates = await h.duplicates();
    await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: names, sortPreference: 'name', mimeType: 'image/jpeg' }, { times: 2 });
    await h.outcome(uploadId);
    // The second delivery has been taken, as a redelivery of the message already handled: it publishes nothing.
    await eventually(async () => (await h.duplicates()) === duplicates + 1);
    const out = await h.outcome(uploadId);
    expect(out.order).toEqual(['ocr.requested.v1', 'ocr.requested.v1', 'ocr.requested.v1', 'frames.extracted.v1']);
  });

  it('cap at maxFrames', async () => {
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, paths);
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: names, sortPreference: 'name', maxFrames: 2, mimeType: 'image/jpeg' }));
    expect(out.extracted!.framesTotal).toBe(2);
    expect(out.ocr).toHaveLength(2);
    // Photos are read at their size; a small video's frames are read enlarged.
    expect(out.ocr.map((o) => o.data.fromVideo)).toEqual([false, false]);
  });

  it('fail the upload, naming the photo, when one has absurd dimensions', async () => {
    const bomb = join(h.workDir, 'bomb.png');
    await writeFile(bomb, await hugePng(100_000));
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, [paths[0]!, bomb]);
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: ['img10.jpg', 'bomb.png'], sortPreference: 'name', mimeType: 'image/png' }));
    expect(out.failed).toMatchObject({
      stage: 'extraction',
      reason: 'Photo 1 (bomb.png) is too large to process (100000 x 100000 pixels); images may be at most 16384 pixels a side.',
    });
    expect(out.order).toEqual(['upload.failed.v1']);
  });

  it('fail the upload when a photo is not an image', async () => {
    const junk = join(h.workDir, 'junk.jpg');
    await writeFile(junk, Buffer.from('\xff\xd8\xff\xe0 but then nothing that decodes', 'latin1'));
    const uploadId = crypto.randomUUID();
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: await storePhotos(uploadId, [junk]), fileNames: ['junk.jpg'], sortPreference: 'name', mimeType: 'image/jpeg' }));
    expect(out.failed?.reason).toMatch(/^Photo 1 \(junk\.jpg\) could not be read: /);
  });

  it('fail the upload at a damaged photo after the ones before it were already sent to be read', async () => {
    const junk = join(h.workDir, 'junk-later.jpg');
    await writeFile(junk, Buffer.from('not an image at all'));
    const uploadId = crypto.randomUUID();
    const keys = await storePhotos(uploadId, [paths[0]!, junk]);
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'photos', objectKeys: keys, fileNames: ['a.jpg', 'b.jpg'], sortPreference: 'name', mimeType: 'image/jpeg' }));
    expect(out.failed?.reason).toMatch(/^Photo 2 \(b\.jpg\) could not be read: /);
    expect(out.order).toEqual(['ocr.requested.v1', 'upload.failed.v1']);
  });
});

describe('frames cut by the browser', () => {
  it('are checked, kept lossless (a PNG stays a PNG) and ordered by the timestamps the event carries', async () => {
    const uploadId = crypto.randomUUID();
    const keys: string[] = [];
    for (const [ms, colour] of [[5000, '#f00'], [0, '#00f']] as const) {
      const key = `uploads/${uploadId}/incoming/${String(ms).padStart(10, '0')}.jpg`;
      await h.storage.put(key, await sharp({ create: { width: 640, height: 360, channels: 3, background: colour } }).png().toBuffer());
      keys.push(key);
    }
    const out = await h.outcome(await h.publishUpload({ uploadId, kind: 'frames', objectKeys: keys, timestamps: [5000, 0], mimeType: 'image/jpeg' }));
    expect(out.extracted!.frames.map((f) => [f.timestampMs, f.objectKey])).toEqual([
      [0, `uploads/${uploadId}/frames/0000000000.png`],
      [5000, `uploads/${uploadId}/frames/0000005000.png`],
    ]);
    const first = await sharp(await h.storage.getBuffer(out.extracted!.frames[0]!.objectKey)).stats();
    expect(first.channels[2]!.mean).toBeGreaterThan(200); // the blue one, taken at 0 ms
    expect((await sharp(await h.storage.getBuffer(out.extracted!.frames[0]!.objectKey)).metadata()).format).toBe('png');
  });
});
