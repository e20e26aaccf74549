import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { bucketAddress, createStorage, S3ObjectStorage, type S3Addressing } from '../src/storage/index.js';
import { loopbackLookup, removeTestBucket, startTestS3Server, testBaseConfig, type TestS3Server } from '../src/testing/index.js';
import { describeStorageConformance, type BrowserFetch } from './storage-conformance.js';

/**
 * The s3 driver against a real S3 server: a single-node Ceph RADOS Gateway started by scripts/test-s3-server.sh.
 * The cluster is left running after the tests so the next run reuses it (~15 s to start); stop it with
 * `scripts/test-s3-server.sh stop`. Each run works in a bucket of its own and removes it afterwards.
 * When Ceph is not installed or does not come up, these tests are skipped with the reason in their title.
 *
 * Both addressing styles run against the same gateway: path style at 127.0.0.1, virtual-host style at localhost (the
 * gateway's DNS name), where each bucket is `<bucket>.localhost`. Those names resolve to 127.0.0.1 through
 * loopbackLookup, given to the driver's agent and to the test's browser requests; the machine's resolver is not used.
 */
const server = await startTestS3Server();
const skipReason = 'skipReason' in server ? server.skipReason : undefined;
if (skipReason) console.warn(`storage-s3.test.ts: SKIPPED, ${skipReason}`);
const s3 = skipReason ? undefined : (server as TestS3Server);
const title = (name: string) => (skipReason ? `${name} (SKIPPED: ${skipReason})` : name);

/** The loopback names requests really went to. */
const lookedUp = new Set<string>();
const loopbackAgent = new http.Agent({ keepAlive: true, lookup: loopbackLookup((name) => lookedUp.add(name)) });
afterAll(() => loopbackAgent.destroy());

/** A browser's request: to the host and port the URL names, with that Host header, resolved by `loopbackLookup`. */
const browserFetch: BrowserFetch = (input, init = {}) => {
  const body = init.body == null ? undefined : Buffer.from(init.body as string | Uint8Array);
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(new URL(input), { method: init.method ?? 'GET', headers: init.headers as Record<string, string>, agent: loopbackAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
        resolve(new Response(chunks.length > 0 ? Buffer.concat(chunks) : null, { status: res.statusCode, headers }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
};

const STYLES: S3Addressing[] = ['path', 'virtual'];
const endpointFor = (addressing: S3Addressing) => (addressing === 'path' ? s3!.endpoint : s3!.virtualEndpoint);

/** The driver in one addressing style, its requests resolved by `loopbackLookup`. */
function s3Storage(addressing: S3Addressing, bucket: string, publicEndpoint?: string): S3ObjectStorage {
  const { accessKey, secretKey } = s3!;
  return new S3ObjectStorage({ endpoint: endpointFor(addressing), addressing, publicEndpoint, accessKey, secretKey, region: 'us-east-1', bucket, agent: loopbackAgent });
}

function s3Config(bucket: string) {
  return testBaseConfig({
    STORAGE_DRIVER: 's3',
    STORAGE_BUCKET: bucket,
    S3_ENDPOINT: s3!.endpoint,
    S3_ACCESS_KEY: s3!.accessKey,
    S3_SECRET_KEY: s3!.secretKey,
  });
}

const removeBucket = (bucket: string) => removeTestBucket(s3!, bucket);

// Bucket names allow no underscores, so not uniqueName().
const newBucket = () => `frametext-test-${randomBytes(4).toString('hex')}`;

describe.skipIf(!!skipReason)(title('s3 storage against a Ceph RADOS Gateway'), () => {
  for (const addressing of STYLES) {
    describeStorageConformance(`s3 storage conformance, ${addressing} style`, async () => {
      const bucket = newBucket();
      return { storage: s3Storage(addressing, bucket), cleanup: () => removeBucket(bucket), fetch: browserFetch };
    });
  }

  it('puts the bucket in the path or in the host name, for its own requests and its presigned URLs alike', async () => {
    for (const addressing of STYLES) {
      const bucket = newBucket();
      const storage = s3Storage(addressing, bucket);
      try {
        await storage.ensureReady();
        await storage.put('style/one.txt', Buffer.from(addressing));
        const url = await storage.presignGet('style/one.txt');
        const endpoint = new URL(endpointFor(addressing));
        const expected = addressing === 'path' ? `${endpoint.origin}/${bucket}/style/one.txt?` : `http://${bucket}.localhost:${endpoint.port}/style/one.txt?`;
        expect(url.startsWith(expected), url).toBe(true);
        expect(await (await browserFetch(url)).text()).toBe(addressing);
        expect(lookedUp.has(`${bucket}.localhost`)).toBe(addressing === 'virtual');
      } finally {
        await removeBucket(bucket);
      }
    }
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

  it('hands out presigned URLs at S3_PUBLIC_ENDPOINT/<bucket>/..., which hold once sent on to the bucket with the Host they were signed for', async () => {
    const publicEndpoint = 'https://frametext.example';
    for (const addressing of STYLES) {
      const bucket = newBucket();
      const storage = s3Storage(addressing, bucket, publicEndpoint);
      // What the gateway does with a request for /<bucket>/<rest>: the bucket's address on the store, plus <rest>.
      const address = bucketAddress(endpointFor(addressing), bucket, addressing);
      const sentOn = (url: string) => `${address.origin}${address.pathPrefix}${url.slice(`${publicEndpoint}/${bucket}`.length)}`;
      try {
        await storage.ensureReady();
        const putUrl = await storage.presignPut('public/one.txt', { contentType: 'text/plain' });
        expect(putUrl.startsWith(`${publicEndpoint}/${bucket}/public/one.txt?`), putUrl).toBe(true);
        const put = await browserFetch(sentOn(putUrl), { method: 'PUT', body: 'through the public address', headers: { 'content-type': 'text/plain' } });
        expect(put.status).toBe(200);
        const getUrl = await storage.presignGet('public/one.txt');
        expect(getUrl.startsWith(`${publicEndpoint}/${bucket}/public/one.txt?`), getUrl).toBe(true);
        expect(await (await browserFetch(sentOn(getUrl))).text()).toBe('through the public address');
        // Sent with the browser's Host instead, the signature no longer holds.
        const withBrowserHost = await browserFetch(sentOn(getUrl), { headers: { host: 'frametext.example' } });
        expect(withBrowserHost.status).toBe(403);
      } finally {
        await removeBucket(bucket);
      }
    }
  });
});

describe('s3 storage configuration', () => {
  it('names the missing setting when S3 is chosen without an endpoint', () => {
    expect(() => createStorage(testBaseConfig({ STORAGE_DRIVER: 's3' }))).toThrow(/S3_ENDPOINT/);
  });

  const settings = (overrides: Record<string, string>) =>
    testBaseConfig({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', S3_REGION: 'eu-west-1', ...overrides });

  it('signs for the path style unless S3_ADDRESSING says virtual', async () => {
    expect(await createStorage(settings({})).presignGet('a/b.txt')).toMatch(/^https:\/\/s3\.eu-west-1\.amazonaws\.com\/frametext\/a\/b\.txt\?/);
    expect(await createStorage(settings({ S3_ADDRESSING: 'virtual' })).presignGet('a/b.txt')).toMatch(/^https:\/\/frametext\.s3\.eu-west-1\.amazonaws\.com\/a\/b\.txt\?/);
    expect(() => settings({ S3_ADDRESSING: 'host' })).toThrow(/S3_ADDRESSING/);
  });

  it('refuses settings under which the bucket would be addressed otherwise than they say', () => {
    expect(() => createStorage(settings({ S3_ENDPOINT: 'https://s3.amazonaws.com' }))).toThrow(/S3_ENDPOINT.*s3\.<region>\.amazonaws\.com/);
    expect(() => createStorage(settings({ S3_ADDRESSING: 'virtual', S3_ENDPOINT: 'http://10.0.0.7:7480' }))).toThrow(/S3_ADDRESSING.*IP address/);
    expect(() => createStorage(settings({ S3_ADDRESSING: 'virtual', STORAGE_BUCKET: 'media.frametext' }))).toThrow(/S3_ADDRESSING.*dots/);
    expect(() => createStorage(settings({ S3_ADDRESSING: 'path', STORAGE_BUCKET: 'media.frametext' }))).not.toThrow();
  });
});
