import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_PARAMS } from '../src/storage/signing.js';
import { StorageNotFoundError, type ObjectStorage } from '../src/storage/types.js';
import { eventually } from '../src/testing/index.js';

/** A browser's request for a presigned URL. */
export type BrowserFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface StorageHarness {
  storage: ObjectStorage;
  /** Removes everything the suite stored (and stops servers it started). */
  cleanup(): Promise<void>;
  /** How presigned URLs are requested, when the global fetch cannot resolve their host names. */
  fetch?: BrowserFetch;
}

/** When a presigned URL stops working (ms): the fs driver's X-Expires, or S3's X-Amz-Date plus X-Amz-Expires. */
function expiryOf(url: string): number {
  const query = new URL(url).searchParams;
  const expires = query.get(SIGNED_PARAMS.expires);
  if (expires) return Number(expires) * 1000;
  const signedAt = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get('X-Amz-Date') ?? '');
  if (!signedAt) throw new Error(`no expiry in ${url}`);
  const [, y, mo, d, h, mi, sec] = signedAt.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, sec!) + Number(query.get('X-Amz-Expires')) * 1000;
}

/**
 * The behaviour every ObjectStorage driver must share, run against a real store: round trips, binary data and
 * streams, missing objects, and presigned URLs used over real HTTP, including the ones that must be refused.
 */
export function describeStorageConformance(title: string, setup: () => Promise<StorageHarness>): void {
  describe(title, () => {
    let harness: StorageHarness;
    let storage: ObjectStorage;
    const prefix = `conformance-${randomBytes(4).toString('hex')}`;
    const key = (name: string) => `${prefix}/${name}`;

    const browser: BrowserFetch = (url, init) => (harness.fetch ?? fetch)(url, init);

    beforeAll(async () => {
      harness = await setup();
      storage = harness.storage;
      await storage.ensureReady();
    });
    afterAll(async () => {
      await harness?.cleanup();
    });

    it('is ready and reachable, and ensureReady can run again', async () => {
      await storage.ensureReady();
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    it('stores a buffer and gives back the same bytes, size and content type', async () => {
      const body = Buffer.from('hello, frames');
      await storage.put(key('hello.txt'), body, { contentType: 'text/plain' });

      expect(await storage.getBuffer(key('hello.txt'))).toEqual(body);
      expect(await readAll(await storage.get(key('hello.txt')))).toEqual(body);
      const info = await storage.head(key('hello.txt'));
      expect(info).toMatchObject({ key: key('hello.txt'), size: body.length, contentType: 'text/plain' });
      expect(info?.etag).toBeTruthy();
      expect(Math.abs(info!.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    });

    it('keeps binary data intact, every byte value included', async () => {
      const body = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1024 * 1024)]);
      await storage.put(key('frames/000015000.jpg'), body, { contentType: 'image/jpeg' });
      const back = await storage.getBuffer(key('frames/000015000.jpg'));
      expect(back.length).toBe(body.length);
      expect(back.equals(body)).toBe(true);
    });

    it('stores a stream and streams it back', async () => {
      const chunks = Array.from({ length: 20 }, () => randomBytes(64 * 1024));
      const whole = Buffer.concat(chunks);
      await storage.put(key('video.mp4'), Readable.from(chunks), { contentType: 'video/mp4', size: whole.length });
      expect((await readAll(await storage.get(key('video.mp4')))).equals(whole)).toBe(true);
      expect(await storage.head(key('video.mp4'))).toMatchObject({ size: whole.length, contentType: 'video/mp4' });
    });

    it('replaces an object that is stored again', async () => {
      await storage.put(key('again.txt'), Buffer.from('first'), { contentType: 'text/plain' });
      await storage.put(key('again.txt'), Buffer.from('second, longer'), { contentType: 'text/csv' });
      expect((await storage.getBuffer(key('again.txt'))).toString()).toBe('second, longer');
      expect(await storage.head(key('again.txt'))).toMatchObject({ size: 14, contentType: 'text/csv' });
    });

    it('answers a missing object with StorageNotFoundError, null from head, and a quiet delete', async () => {
      await expect(storage.get(key('missing.bin'))).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.getBuffer(key('missing.bin'))).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.head(key('missing.bin'))).toBeNull();
      await expect(storage.delete(key('missing.bin'))).resolves.toBeUndefined();
    });

    it('deletes an object', async () => {
      await storage.put(key('doomed.txt'), Buffer.from('bye'));
      await storage.delete(key('doomed.txt'));
      expect(await storage.head(key('doomed.txt'))).toBeNull();
      await expect(storage.get(key('doomed.txt'))).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('copies an object inside the store with its bytes and content type, replacing what was at the copy\'s key', async () => {
      const body = randomBytes(300_000);
      await storage.put(key('copy/source video.mp4'), body, { contentType: 'video/mp4' });
      await storage.put(key('copy/sealed/video.mp4'), Buffer.from('older object at the target'), { contentType: 'text/plain' });
      await storage.copy(key('copy/source video.mp4'), key('copy/sealed/video.mp4'));
      expect((await storage.getBuffer(key('copy/sealed/video.mp4'))).equals(body)).toBe(true);
      expect(await storage.head(key('copy/sealed/video.mp4'))).toMatchObject({ key: key('copy/sealed/video.mp4'), size: body.length, contentType: 'video/mp4' });
      expect((await storage.head(key('copy/sealed/video.mp4')))?.etag).toBeTruthy();
      // Copying an object onto itself changes nothing.
      await storage.copy(key('copy/source video.mp4'), key('copy/source video.mp4'));
      expect((await storage.getBuffer(key('copy/source video.mp4'))).equals(body)).toBe(true);
    });

    it('keeps a copy as it was when its source is written again, through a presigned URL too, or deleted', async () => {
      const putUrl = await storage.presignPut(key('seal/photo.jpg'), { contentType: 'image/jpeg', expiresIn: 300 });
      const first = randomBytes(50_000);
      expect((await browser(putUrl, { method: 'PUT', body: first, headers: { 'Content-Type': 'image/jpeg' } })).status).toBe(200);
      await storage.copy(key('seal/photo.jpg'), key('seal/sealed/photo.jpg'));

      const swapped = randomBytes(70_000);
      expect((await browser(putUrl, { method: 'PUT', body: swapped, headers: { 'Content-Type': 'image/jpeg' } })).status).toBe(200);
      expect((await storage.getBuffer(key('seal/photo.jpg'))).equals(swapped)).toBe(true);
      expect((await storage.getBuffer(key('seal/sealed/photo.jpg'))).equals(first)).toBe(true);
      expect(await storage.head(key('seal/sealed/photo.jpg'))).toMatchObject({ size: first.length, contentType: 'image/jpeg' });

      await storage.delete(key('seal/photo.jpg'));
      expect((await storage.getBuffer(key('seal/sealed/photo.jpg'))).equals(first)).toBe(true);
    });

    it('answers a copy of a missing object with StorageNotFoundError and stores nothing; refuses invalid keys', async () => {
      await expect(storage.copy(key('copy/missing.bin'), key('copy/never.bin'))).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.head(key('copy/never.bin'))).toBeNull();
      await storage.put(key('copy/folder/inside.txt'), Buffer.from('x'));
      await expect(storage.copy(key('copy/folder'), key('copy/not-a-folder'))).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.copy('../etc/passwd', key('copy/x'))).rejects.toMatchObject({ code: 'storage/invalid-key' });
      await expect(storage.copy(key('copy/folder/inside.txt'), '/abs')).rejects.toMatchObject({ code: 'storage/invalid-key' });
    });

    it('lists the objects under a folder, and only that folder', async () => {
      const folder = key('listing/up1');
      await storage.put(`${folder}/frames/0000001000.jpg`, Buffer.from('a'));
      await storage.put(`${folder}/frames/0000000000.jpg`, Buffer.from('b'));
      await storage.put(`${folder}/source/video.mp4`, Buffer.from('c'));
      await storage.put(key('listing/up10/frames/0000000000.jpg'), Buffer.from('neighbour'));

      const expected = [`${folder}/frames/0000000000.jpg`, `${folder}/frames/0000001000.jpg`, `${folder}/source/video.mp4`];
      expect(await storage.list(folder)).toEqual(expected);
      expect(await storage.list(`${folder}/`)).toEqual(expected);
      expect(await storage.list(`${folder}/frames`)).toEqual(expected.slice(0, 2));
      expect(await storage.list(key('listing/nothing-here'))).toEqual([]);
    });

    it('deletes every object under a folder and leaves its neighbours', async () => {
      const folder = key('purge/up1');
      await storage.put(`${folder}/frames/0000000000.jpg`, Buffer.from('a'));
      await storage.put(`${folder}/thumbs/0000000000.jpg`, Buffer.from('b'));
      await storage.put(`${folder}/results/presentation.txt`, Buffer.from('c'));
      await storage.put(key('purge/up10/keep.txt'), Buffer.from('neighbour'));

      expect(await storage.deletePrefix(folder)).toBe(3);
      expect(await storage.list(folder)).toEqual([]);
      expect(await storage.head(`${folder}/frames/0000000000.jpg`)).toBeNull();
      expect((await storage.getBuffer(key('purge/up10/keep.txt'))).toString()).toBe('neighbour');
      expect(await storage.deletePrefix(folder)).toBe(0);
      // The folder can be written again after it was emptied.
      await storage.put(`${folder}/frames/0000000000.jpg`, Buffer.from('again'));
      expect(await storage.list(folder)).toEqual([`${folder}/frames/0000000000.jpg`]);
    });

    it('refuses folder prefixes that could escape their folder', async () => {
      for (const bad of ['', '/', '../x', 'a//b', '/abs']) {
        await expect(storage.list(bad), `list ${JSON.stringify(bad)}`).rejects.toMatchObject({ code: 'storage/invalid-key' });
        await expect(storage.deletePrefix(bad), `deletePrefix ${JSON.stringify(bad)}`).rejects.toMatchObject({ code: 'storage/invalid-key' });
      }
    });

    it('refuses keys that could escape their folder', async () => {
      for (const bad of ['', '../etc/passwd', `${prefix}/../x`, '/abs/path', 'a\\b', 'a//b', 'a/', 'a/./b']) {
        await expect(storage.put(bad, Buffer.from('x')), `put ${JSON.stringify(bad)}`).rejects.toMatchObject({ code: 'storage/invalid-key' });
        await expect(storage.presignPut(bad), `presignPut ${JSON.stringify(bad)}`).rejects.toMatchObject({ code: 'storage/invalid-key' });
      }
    });

    it('accepts a presigned PUT over HTTP, then serves the object through a presigned GET', async () => {
      const body = randomBytes(200_000);
      const putUrl = await storage.presignPut(key('upload/photo 1.jpg'), { contentType: 'image/jpeg', expiresIn: 300 });
      const put = await browser(putUrl, { method: 'PUT', body, headers: { 'Content-Type': 'image/jpeg' } });
      expect(put.status, await put.clone().text()).toBe(200);
      expect(put.headers.get('etag')).toBeTruthy();
      expect(await storage.head(key('upload/photo 1.jpg'))).toMatchObject({ size: body.length, contentType: 'image/jpeg' });

      const get = await browser(await storage.presignGet(key('upload/photo 1.jpg')));
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await get.arrayBuffer()).equals(body)).toBe(true);
    });

    it('answers 404 to a valid presigned GET of a missing object', async () => {
      const res = await browser(await storage.presignGet(key('never-stored.jpg')));
      expect(res.status).toBe(404);
    });

    it('refuses presigned URLs once they have expired', async () => {
      await storage.put(key('expiring.txt'), Buffer.from('soon gone'));
      const getUrl = await storage.presignGet(key('expiring.txt'), { expiresIn: 1 });
      const putUrl = await storage.presignPut(key('expiring-put.txt'), { expiresIn: 1 });
      // Refused once the clock is a whole second past both expiries (stores compare whole seconds).
      const expired = Math.max(expiryOf(getUrl), expiryOf(putUrl)) + 1000;
      await eventually(() => Date.now() >= expired, 5_000, 20, 'the clock past the URL expiries');
      expect((await browser(getUrl)).status).toBe(403);
      expect((await browser(putUrl, { method: 'PUT', body: 'late' })).status).toBe(403);
      expect(await storage.head(key('expiring-put.txt'))).toBeNull();
    });

    it('refuses a URL whose key, expiry or signature was tampered with', async () => {
      await storage.put(key('mine.txt'), Buffer.from('mine'));
      await storage.put(key('theirs.txt'), Buffer.from('theirs'));
      const url = new URL(await storage.presignGet(key('mine.txt'), { expiresIn: 60 }));

      const otherKey = new URL(url);
      otherKey.pathname = otherKey.pathname.replace(/mine\.txt$/, 'theirs.txt');
      const stolen = await browser(otherKey);
      expect(stolen.status).toBe(403);
      expect(await stolen.text()).not.toContain('theirs');

      const longer = new URL(url);
      const expiresParam = paramEndingWith(url, 'expires');
      longer.searchParams.set(expiresParam, String(Number(url.searchParams.get(expiresParam)) + 3600));
      expect((await browser(longer)).status).toBe(403);

      const forged = new URL(url);
      const signatureParam = paramEndingWith(url, 'signature');
      const signature = url.searchParams.get(signatureParam)!;
      forged.searchParams.set(signatureParam, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
      expect((await browser(forged)).status).toBe(403);

      expect((await browser(url)).status).toBe(200);
    });

    it('refuses a URL used with another method than the one it was signed for', async () => {
      await storage.put(key('read-only.txt'), Buffer.from('original'));
      const getUrl = await storage.presignGet(key('read-only.txt'), { expiresIn: 60 });
      const overwrite = await browser(getUrl, { method: 'PUT', body: 'overwritten' });
      expect(overwrite.status).toBe(403);
      expect((await storage.getBuffer(key('read-only.txt'))).toString()).toBe('original');

      const putUrl = await storage.presignPut(key('read-only.txt'), { expiresIn: 60 });
      expect((await browser(putUrl)).status).toBe(403);
    });
  });
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `X-Expires` (fs) or `X-Amz-Expires` (s3): the suite tampers with whichever the driver uses. */
function paramEndingWith(url: URL, suffix: string): string {
  const name = [...url.searchParams.keys()].find((k) => k.toLowerCase().endsWith(suffix));
  if (!name) throw new Error(`no *${suffix} parameter in ${url.toString()}`);
  return name;
}
