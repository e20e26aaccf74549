import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStorage, type S3Addressing } from '@frametext/service-kit';
import { loopbackLookup, removeTestBucket, startTestS3Server, type TestS3Server } from '@frametext/service-kit/testing';
import { UPSTREAM_SERVICES, type UpstreamService } from '../src/config.js';
import { gatewaySettings, startGateway } from './start-gateway.js';
import { FakeService, makeKey, startJwks } from './support.js';

/**
 * The production route of presigned URLs, browser -> gateway -> object store, against a real S3 server: the Ceph
 * RADOS Gateway of scripts/test-s3-server.sh, in both addressing styles (its bucket host names, `<bucket>.localhost`,
 * resolve to 127.0.0.1 through loopbackLookup, for the gateway and the driver alike). Skipped without Ceph.
 */
const server = await startTestS3Server();
const skipReason = 'skipReason' in server ? server.skipReason : undefined;
if (skipReason) console.warn(`object-store.test.ts: SKIPPED, ${skipReason}`);
const s3 = skipReason ? undefined : (server as TestS3Server);

const upstream = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, new FakeService(s)])) as Record<UpstreamService, FakeService>;
const tmp = mkdtempSync(path.join(tmpdir(), 'gateway-store-test-'));
const storeAgent = new http.Agent({ keepAlive: true, lookup: loopbackLookup() });
let jwks: Awaited<ReturnType<typeof startJwks>>;

beforeAll(async () => {
  for (const s of Object.values(upstream)) await s.start();
  jwks = await startJwks([makeKey('key-1')]);
});

afterAll(async () => {
  for (const s of Object.values(upstream)) await s.stop();
  await jwks?.close();
  storeAgent.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!!skipReason)(`presigned URLs through the gateway${skipReason ? ` (SKIPPED: ${skipReason})` : ''}`, () => {
  for (const addressing of ['path', 'virtual'] as S3Addressing[]) {
    it(`hold in ${addressing} style: a browser PUTs and GETs at the gateway, which sends them on with the store's Host`, async () => {
      const bucket = `frametext-test-${randomBytes(4).toString('hex')}`;
      const endpoint = addressing === 'path' ? s3!.endpoint : s3!.virtualEndpoint;
      const env = gatewaySettings(
        { upstream, identity: jwks, dir: tmp },
        { STORAGE_DRIVER: 's3', STORAGE_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ADDRESSING: addressing, S3_ACCESS_KEY: s3!.accessKey, S3_SECRET_KEY: s3!.secretKey },
      );
      const gateway = await startGateway(env, { storeLookup: loopbackLookup() });
      const storage = new S3ObjectStorage({ endpoint, addressing, publicEndpoint: gateway.base, accessKey: s3!.accessKey, secretKey: s3!.secretKey, region: 'us-east-1', bucket, agent: storeAgent });
      try {
        await storage.ensureReady();
        const putUrl = await storage.presignPut('uploads/u1/photo 1.jpg', { contentType: 'image/jpeg' });
        expect(putUrl.startsWith(`${gateway.base}/${bucket}/uploads/u1/photo%201.jpg?`), putUrl).toBe(true);
        const photo = randomBytes(100_000);
        const put = await fetch(putUrl, { method: 'PUT', body: photo, headers: { 'content-type': 'image/jpeg' } });
        expect(put.status, await put.clone().text()).toBe(200);
        expect(await storage.head('uploads/u1/photo 1.jpg')).toMatchObject({ size: photo.length, contentType: 'image/jpeg' });

        const get = await fetch(await storage.presignGet('uploads/u1/photo 1.jpg'));
        expect(get.status).toBe(200);
        expect(Buffer.from(await get.arrayBuffer()).equals(photo)).toBe(true);

        const forged = new URL(await storage.presignGet('uploads/u1/photo 1.jpg'));
        forged.pathname = forged.pathname.replace('photo%201.jpg', 'other.jpg');
        expect((await fetch(forged)).status).toBe(403);
      } finally {
        await gateway.server.close();
        await gateway.gateway.close();
        await removeTestBucket(s3!, bucket);
      }
    });
  }
});
