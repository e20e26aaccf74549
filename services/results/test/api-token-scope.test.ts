// Defence in depth: the results service checks a personal API token's scope itself, whatever reached it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@frametext/service-kit/testing';
import { newUserId } from './fixtures.js';
import { startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults();
});
afterAll(async () => {
  await svc?.stop();
});

const asToken = (method: string, path: string, token: string, body?: unknown) => svc.service.request(method, path, { token, body });

describe('an access token exchanged for a personal API token, at the service', () => {
  it('reads with the read scope, but deleting needs the upload scope (403 saying so)', async () => {
    const user = newUserId();
    const read = svc.service.issuer.tokenFor(user, { scope: 'read' });
    expect((await asToken('GET', '/api/getUploads', read)).status).toBe(200);
    const refused = await asToken('POST', '/api/deleteUploads', read, { uploads: ['any'], deleteUploads: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'auth/api-token-scope', message: 'This token can only read; create one with the upload scope on your Account page.' });
    const upload = svc.service.issuer.tokenFor(user, { scope: 'upload' });
    expect((await asToken('POST', '/api/deleteUploads', upload, { uploads: ['any'], deleteUploads: true })).status).not.toBe(403);
  });

  it('refuses an unknown scope, and a revoked token once the feed lists it', async () => {
    const user = newUserId();
    const tokenId = randomUUID();
    const token = svc.service.issuer.tokenFor(user, { scope: 'read', sessionId: tokenId });
    expect((await asToken('GET', '/api/getUploads', token)).status).toBe(200);
    svc.service.issuer.revoke(tokenId);
    await eventually(async () => (await asToken('GET', '/api/getUploads', token)).status === 401);
    expect((await asToken('GET', '/api/getUploads', token)).body.error.message).toBe('This API token was revoked or does not exist.');
    expect((await asToken('GET', '/api/getUploads', svc.service.issuer.tokenFor(user, { scope: 'admin' as 'read' }))).status).toBe(401);
  });
});
