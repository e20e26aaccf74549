import { connect, createServer, type AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from 'minio';
import { describe, expect, it } from 'vitest';
import { createStorage } from '../src/storage/index.js';
import { testBaseConfig } from '../src/testing/index.js';
import { describeStorageConformance } from './storage-conformance.js';

/**
 * The s3 driver against a real S3 server: a single-node Ceph RADOS Gateway started by scripts/test-s3-server.sh.
 * The cluster is left running after the tests so the next run reuses it (~15 s to start); stop it with
 * `scripts/test-s3-server.sh stop`. Each run works in a bucket of its own and removes it afterwards.
 * When Ceph is not installed or does not come up, these tests are skipped with the reason in their title.
 */
const SCRIPT = fileURLToPath(new URL('../../../scripts/test-s3-server.sh', import.meta.url));

interface S3Server {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

async function startS3Server(): Promise<S3Server | { skipReason: string }> {
  try {
    const { stdout } = await promisify(execFile)('bash', [SCRIPT], { timeout: 120_000 });
    const env = Object.fromEntries(stdout.trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
    if (!env.S3_ENDPOINT || !env.S3_ACCESS_KEY || !env.S3_SECRET_KEY) return { skipReason: `unexpected output from ${SCRIPT}: ${stdout}` };
    return { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY };
  } catch (err) {
    const e = err as { code?: number | string; stderr?: string; message: string };
    const detail = (e.stderr ?? '').trim().split('\n').slice(-2).join(' / ') || e.message;
    return { skipReason: e.code === 2 ? `Ceph RADOS Gateway is not installed (${detail})` : `the RADOS Gateway did not come up: ${detail}` };
  }
}

const server = await startS3Server();
const skipReason = 'skipReason' in server ? server.skipReason : undefined;
if (skipReason) console.warn(`storage-s3.test.ts: SKIPPED, ${skipReason}`);
const s3 = skipReason ? undefined : (server as S3Server);
const title = (name: string) => (skipReason ? `${name} (SKIPPED: ${skipReason})` : name);

function s3Config(bucket: string, extra: { S3_PUBLIC_ENDPOINT?: string } = {}) {
  return testBaseConfig({
    ...extra,
    STORAGE_DRIVER: 's3',
    STORAGE_BUCKET: bucket,
    S3_ENDPOINT: s3!.endpoint,
    S3_ACCESS_KEY: s3!.accessKey,
    S3_SECRET_KEY: s3!.secretKey,
  });
}

async function removeBucket(bucket: string): Promise<void> {
  const url = new URL(s3!.endpoint);
  const client = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: s3!.accessKey, secretKey: s3!.secretKey, pathStyle: true });
  if (!(await client.bucketExists(bucket))) return;
  const names: string[] = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) names.push((item as { name: string }).name);
  if (names.length) await client.removeObjects(bucket, names);
  await client.removeBucket(bucket);
}

// Bucket names allow no underscores, so not uniqueName().
const newBucket = () => `frametext-test-${randomBytes(4).toString('hex')}`;

describe.skipIf(!!skipReason)(title('s3 storage against a Ceph RADOS Gateway'), () => {
  describeStorageConformance('s3 storage conformance', async () => {
    const bucket = newBucket();
    return { storage: createStorage(s3Config(bucket)), cleanup: () => removeBucket(bucket) };
  });

  it('creates its bucket on ensureReady, and ping fails while the bucket is missing', async () => {
    const bucket = newBucket();
    const storage = createStorage(s3Config(bucket));
    try {
      await expect(storage.ping()).rejects.toThrow(/does not exist/);
      await storage.ensureReady();
      await storage.ensureReady();
      await expect(storage.ping()).resolves.toBeUndefined();
    } finally {
      await removeBucket(bucket);
    }
  });

  it('signs presigned URLs for S3_PUBLIC_ENDPOINT, the address browsers reach, and they work there', async () => {
    const bucket = newBucket();
    const internal = new URL(s3!.endpoint);
    // A TCP forwarder on another port stands in for the gateway, which passes /<bucket>/... on with the Host intact.
    const forwarder = createServer((socket) => {
      const upstream = connect(Number(internal.port), internal.hostname);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    const publicEndpoint = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
    const storage = createStorage(s3Config(bucket, { S3_PUBLIC_ENDPOINT: publicEndpoint }));
    try {
      await storage.ensureReady();
      const putUrl = await storage.presignPut('public/one.txt', { contentType: 'text/plain' });
      expect(putUrl.startsWith(`${publicEndpoint}/${bucket}/public/one.txt?`)).toBe(true);
      expect((await fetch(putUrl, { method: 'PUT', body: 'through the public address', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
      const getUrl = await storage.presignGet('public/one.txt');
      expect(getUrl.startsWith(publicEndpoint)).toBe(true);
      expect(await (await fetch(getUrl)).text()).toBe('through the public address');
    } finally {
      forwarder.close();
      await removeBucket(bucket);
    }
  });
});

describe('s3 storage configuration', () => {
  it('names the missing setting when S3 is chosen without an endpoint', () => {
    expect(() => createStorage(testBaseConfig({ STORAGE_DRIVER: 's3' }))).toThrow(/S3_ENDPOINT/);
  });
});
