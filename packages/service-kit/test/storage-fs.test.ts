import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, finishHttpApp, listen, type RunningServer } from '../src/http/app.js';
import { createFsObjectRouter, createStorage, FsObjectStorage, S3ObjectStorage } from '../src/storage/index.js';
import { SIGNED_PARAMS } from '../src/storage/signing.js';
import { eventually, rawRequest, socketRequest, testBaseConfig, testLogger } from '../src/testing/index.js';
import { describeStorageConformance } from './storage-conformance.js';

interface FsFileServer {
  storage: FsObjectStorage;
  root: string;
  close(): Promise<void>;
}

/** The fs driver as the gateway runs it: the /files router on a real HTTP server, its URL as STORAGE_PUBLIC_URL. */
async function startFsFileServer(opts: { maxUploadBytes?: number; bodyIdleTimeoutMs?: number } = {}): Promise<FsFileServer> {
  const root = await mkdtemp(join(tmpdir(), 'frametext-storage-'));
  const logger = testLogger('files');
  const { app } = createHttpApp({ name: 'files', logger, parseJson: false });
  const server: RunningServer = await listen(app, 0, '127.0.0.1');
  const storage = createStorage(
    testBaseConfig({ STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: root, STORAGE_PUBLIC_URL: `http://127.0.0.1:${server.port}` }),
  );
  if (!(storage instanceof FsObjectStorage)) throw new Error('expected the fs driver');
  app.use('/files', createFsObjectRouter(storage, opts));
  finishHttpApp(app, logger);
  await storage.ensureReady();
  return {
    storage,
    root,
    close: async () => {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

describeStorageConformance('fs storage conformance', async () => {
  const server = await startFsFileServer();
  return { storage: server.storage, cleanup: server.close };
});

describe('fs storage on disk and behind the /files router', () => {
  let server: FsFileServer;
  let storage: FsObjectStorage;
  beforeAll(async () => {
    server = await startFsFileServer({ maxUploadBytes: 64 * 1024, bodyIdleTimeoutMs: 400 });
    storage = server.storage;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('defaults its root folder to <DATA_DIR>/objects', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'frametext-data-'));
    try {
      const store = createStorage(testBaseConfig({ STORAGE_DRIVER: 'fs', DATA_DIR: dataDir }));
      await store.ensureReady();
      await store.put('a/b.txt', Buffer.from('x'));
      expect((await readdir(join(dataDir, 'objects'))).sort()).toEqual(['data', 'meta', 'tmp']);
      expect((await readFile(join(dataDir, 'objects', 'data', 'a', 'b.txt'))).toString()).toBe('x');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('writes a sidecar with content type, size, md5 etag and time, and leaves no temporary file', async () => {
    await storage.put('sidecar/one.jpg', Buffer.from('jpeg bytes'), { contentType: 'image/jpeg' });
    const sidecar = JSON.parse(await readFile(join(server.root, 'meta', 'sidecar', 'one.jpg.json'), 'utf8')) as Record<string, unknown>;
    expect(sidecar).toMatchObject({ contentType: 'image/jpeg', size: 10, etag: '2ccd799f3a5130350478899447b6aa06' });
    expect(new Date(sidecar.lastModified as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await readdir(join(server.root, 'tmp'))).toEqual([]);
  });

  it('copies by hard link (no second copy of the bytes on disk) with a sidecar of its own', async () => {
    await storage.put('linked/source.mp4', Buffer.from('video bytes'), { contentType: 'video/mp4' });
    await storage.copy('linked/source.mp4', 'linked/sealed/video.mp4');
    const [a, b] = await Promise.all([stat(join(server.root, 'data', 'linked', 'source.mp4')), stat(join(server.root, 'data', 'linked', 'sealed', 'video.mp4'))]);
    expect(b.ino).toBe(a.ino);
    const sidecar = JSON.parse(await readFile(join(server.root, 'meta', 'linked', 'sealed', 'video.mp4.json'), 'utf8')) as Record<string, unknown>;
    expect(sidecar).toMatchObject({ contentType: 'video/mp4', size: 11, etag: (await storage.head('linked/source.mp4'))!.etag });
    await storage.put('linked/source.mp4', Buffer.from('replaced'), { contentType: 'video/mp4' });
    expect((await storage.getBuffer('linked/sealed/video.mp4')).toString()).toBe('video bytes');
    expect(await readdir(join(server.root, 'tmp'))).toEqual([]);
  });

  it('keeps the previous object when a new write fails half-way', async () => {
    await storage.put('atomic/frame.jpg', Buffer.from('good old bytes'), { contentType: 'image/jpeg' });
    const broken = new Readable({ read() {} });
    broken.push(Buffer.from('half of the new'));
    setTimeout(() => broken.destroy(new Error('disk went away')), 20);
    await expect(storage.put('atomic/frame.jpg', broken, { contentType: 'image/png' })).rejects.toThrow('disk went away');
    expect((await storage.getBuffer('atomic/frame.jpg')).toString()).toBe('good old bytes');
    expect(await storage.head('atomic/frame.jpg')).toMatchObject({ contentType: 'image/jpeg', size: 14 });
    expect(await readdir(join(server.root, 'tmp'))).toEqual([]);
  });

  it('refuses a key that clashes with an existing object path with a 409 error', async () => {
    await storage.put('clash/file', Buffer.from('x'));
    await expect(storage.put('clash/file/inner', Buffer.from('y'))).rejects.toMatchObject({ status: 409, code: 'storage/key-conflict' });
    expect(await storage.head('clash')).toBeNull();
  });

  it('serves GET and HEAD with type, length, etag and private caching headers', async () => {
    await storage.put('served/page.png', Buffer.from('png bytes!'), { contentType: 'image/png' });
    const info = await storage.head('served/page.png');
    const url = await storage.presignGet('served/page.png', { expiresIn: 120 });
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(url, { method });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-length')).toBe('10');
      expect(res.headers.get('etag')).toBe(`"${info!.etag}"`);
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=(119|120|121)$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe(method === 'GET' ? 'png bytes!' : '');
    }
  });

  it('answers refusals as JSON errors with stable codes', async () => {
    await storage.put('codes/a.txt', Buffer.from('a'));
    const url = new URL(await storage.presignGet('codes/a.txt', { expiresIn: 60 }));

    const tampered = new URL(url);
    tampered.searchParams.set('X-Signature', '0'.repeat(64));
    expect(await errorOf(await fetch(tampered))).toEqual({ status: 403, code: 'storage/signature-invalid' });

    const unsigned = new URL(url);
    unsigned.search = '';
    expect(await errorOf(await fetch(unsigned))).toEqual({ status: 403, code: 'storage/signature-invalid' });

    expect(await errorOf(await fetch(url, { method: 'PUT', body: 'x' }))).toEqual({ status: 403, code: 'storage/method-not-allowed' });
    expect(await errorOf(await fetch(url, { method: 'DELETE' }))).toEqual({ status: 403, code: 'storage/method-not-allowed' });

    const expired = await storage.presignGet('codes/a.txt', { expiresIn: 1 });
    // Refused once the clock is past the expiry the URL carries (whole seconds).
    const expires = Number(new URL(expired).searchParams.get(SIGNED_PARAMS.expires));
    await eventually(() => Date.now() > expires * 1000, 5_000, 20, 'the clock past the URL expiry');
    expect(await errorOf(await fetch(expired))).toEqual({ status: 403, code: 'storage/url-expired' });

    await storage.delete('codes/a.txt');
    expect(await errorOf(await fetch(url))).toEqual({ status: 404, code: 'storage/not-found' });
  });

  it('binds a presigned PUT to the content type it was signed with', async () => {
    const url = await storage.presignPut('typed/photo.jpg', { contentType: 'image/jpeg' });
    expect(new URL(url).searchParams.get('X-Content-Type')).toBe('image/jpeg');
    const wrong = await fetch(url, { method: 'PUT', body: '<script>', headers: { 'Content-Type': 'text/html' } });
    expect(await errorOf(wrong)).toEqual({ status: 403, code: 'storage/content-type-mismatch' });
    expect(await storage.head('typed/photo.jpg')).toBeNull();

    const forgedType = new URL(url);
    forgedType.searchParams.set('X-Content-Type', 'text/html');
    const forged = await fetch(forgedType, { method: 'PUT', body: '<script>', headers: { 'Content-Type': 'text/html' } });
    expect(await errorOf(forged)).toEqual({ status: 403, code: 'storage/signature-invalid' });
  });

  it('refuses an upload over the size cap with 413 and stores nothing', async () => {
    const url = await storage.presignPut('big/video.mp4', { contentType: 'video/mp4' });
    const declared = await fetch(url, { method: 'PUT', body: randomBytes(100 * 1024), headers: { 'Content-Type': 'video/mp4' } });
    expect(await errorOf(declared)).toEqual({ status: 413, code: 'storage/too-large' });

    // No Content-Length: the cap is enforced while the body streams in.
    const streamed = await fetch(url, {
      method: 'PUT',
      body: Readable.toWeb(Readable.from([randomBytes(40 * 1024), randomBytes(40 * 1024)])) as ReadableStream,
      headers: { 'Content-Type': 'video/mp4' },
      duplex: 'half',
    } as RequestInit);
    expect(await errorOf(streamed)).toEqual({ status: 413, code: 'storage/too-large' });
    expect(await storage.head('big/video.mp4')).toBeNull();
    expect(await readdir(join(server.root, 'tmp'))).toEqual([]);

    const fits = await fetch(url, { method: 'PUT', body: randomBytes(64 * 1024), headers: { 'Content-Type': 'video/mp4' } });
    expect(fits.status).toBe(200);
    expect((await stat(join(server.root, 'data', 'big', 'video.mp4'))).size).toBe(64 * 1024);
  });

  it('cuts an upload that stalls with 408 and stores nothing, and lets a slow but steady one through', async () => {
    const url = new URL(await storage.presignPut('slow/photo.jpg', { contentType: 'image/jpeg' }));
    const stalled = await socketRequest(url.origin, [
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n\r\n`,
      Buffer.alloc(100, 1),
    ]);
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toMatchObject({ error: { code: 'request/body-idle' } });
    expect(stalled.headers.connection).toBe('close');
    expect(await storage.head('slow/photo.jpg')).toBeNull();
    expect(await readdir(join(server.root, 'tmp'))).toEqual([]);

    // Six chunks a fifth of the idle time apart: longer in total than the idle time, never silent that long.
    const steady = await rawRequest(url.toString(), { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, chunks: Array.from({ length: 6 }, () => Buffer.alloc(1000, 2)), pauseMs: 80 });
    expect(steady.status).toBe(200);
    expect(await storage.head('slow/photo.jpg')).toMatchObject({ size: 6000 });
  });

  it('refuses a path that tries to climb out of the root, even percent-encoded', async () => {
    const base = new URL(await storage.presignGet('codes/b.txt'));
    for (const path of ['/files/..%2F..%2Fetc%2Fpasswd', '/files/a%5Cb', '/files/%2Fetc%2Fpasswd']) {
      const res = await fetch(`${base.origin}${path}${base.search}`);
      expect(res.status, path).toBe(400);
      expect((await res.json()) as unknown).toMatchObject({ error: { code: 'storage/invalid-key' } });
    }
  });

  it('serves the fs driver only', () => {
    const s3 = new S3ObjectStorage({ endpoint: 'http://127.0.0.1:9', accessKey: 'a', secretKey: 'b', region: 'us-east-1', bucket: 'bucket' });
    expect(() => createFsObjectRouter(s3)).toThrow(/fs driver only/);
  });
});

async function errorOf(res: Response): Promise<{ status: number; code: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.message).toBeTruthy();
  return { status: res.status, code: body.error.code };
}
