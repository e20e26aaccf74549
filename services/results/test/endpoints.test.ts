import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUploadsResponseSchema } from '@frametext/contracts';
import { completed, detection, extracted, frameKey, newUploadId, newUserId, ocr, thumbKey } from './fixtures.js';
import { eventually, startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults();
});
afterAll(async () => {
  await svc?.stop();
});

const DAY_MS = 86_400_000;

/** Runs an upload to processed, storing its frame images, thumbnails and source as the other services would. */
async function processedUpload(user: string, opts: { createdAt?: Date; name?: string; frames?: number } = {}): Promise<string> {
  const id = newUploadId();
  const frames = opts.frames ?? 2;
  for (let i = 0; i < frames; i += 1) {
    await svc.ctx.storage.put(frameKey(id, i), Buffer.from(`frame ${i}`), { contentType: 'image/jpeg' });
    await svc.ctx.storage.put(thumbKey(id, i), Buffer.from(`thumb ${i}`), { contentType: 'image/jpeg' });
  }
  await svc.ctx.storage.put(`uploads/${id}/source/video.mp4`, Buffer.from('video'), { contentType: 'video/mp4' });
  await svc.publish('upload.completed.v1', completed(id, user, { maxFrames: frames, uploadName: opts.name ?? 'Upload', createdAt: (opts.createdAt ?? new Date()).toISOString() }));
  await svc.publish('frames.extracted.v1', extracted(id, frames));
  for (let i = 0; i < frames; i += 1) await svc.publish('ocr.completed.v1', ocr(id, i, [detection(`value ${i}`, 0)]));
  await eventually(async () => (await svc.db('uploads').where({ id, status: 'processed' }).first()) !== undefined);
  return id;
}

describe('results endpoints', () => {
  it('lists only the caller\'s uploads, newest first, with a presigned thumbnail of the first frame', async () => {
    const user = newUserId();
    const older = await processedUpload(user, { name: 'older', createdAt: new Date(Date.now() - 2 * DAY_MS) });
    const newer = await processedUpload(user, { name: 'newer' });
    const pending = newUploadId();
    await svc.publish('upload.completed.v1', completed(pending, user, { uploadName: 'pending', createdAt: new Date(Date.now() - DAY_MS).toISOString() }));
    await processedUpload(newUserId(), { name: 'someone else' });
    await eventually(async () => (await svc.db('uploads').where({ id: pending }).first()) !== undefined);

    const res = await svc.get('/api/getUploads', user);
    expect(res.status).toBe(200);
    const { uploads } = getUploadsResponseSchema.parse(res.body).data;
    expect(uploads.map((u) => [u.uploadName, u.status])).toEqual([
      ['newer', 'processed'],
      ['pending', 'uploaded'],
      ['older', 'processed'],
    ]);
    expect(uploads[0]).toMatchObject({ id: newer, mediaContent: 'numerical', isLocal: false });
    expect(uploads[0]!.imageUrl).toContain(`/files/uploads/${newer}/thumbs/0000000000.jpg?`);
    expect(uploads[1]!.imageUrl).toBeNull();
    expect(uploads[2]!.id).toBe(older);
  });

  it('says what a processed upload\'s reading found, on its card and in its status, with the credits it was charged', async () => {
    const user = newUserId();
    const id = newUploadId();
    await svc.publish('upload.completed.v1', completed(id, user, { engine: 'cloud', maxFrames: 3, creditCost: 3 }));
    await svc.publish('frames.extracted.v1', extracted(id, 3));
    await svc.publish('ocr.completed.v1', ocr(id, 0, []));
    await svc.publish('ocr.completed.v1', ocr(id, 1, [detection('88.8', 0), detection('kWh', 0, 200)]));
    await svc.publish('ocr.completed.v1', ocr(id, 2, [], 'The frame could not be read.'));
    await eventually(async () => (await svc.db('uploads').where({ id, status: 'processed' }).first()) !== undefined);

    const [listed] = getUploadsResponseSchema.parse((await svc.get('/api/getUploads', user)).body).data.uploads;
    expect(listed).toMatchObject({ id, textFound: { frames: 3, framesWithText: 1, words: 2 } });
    const status = (await svc.get(`/api/checkUploadStatus/${id}`, user)).body.data;
    // Two frames were read (one with text, one without) and are charged; the one the engine could not read is not.
    expect(status).toMatchObject({ status: 'processed', textFound: { frames: 3, framesWithText: 1, words: 2 }, charged: { credits: 2, framesRead: 2 } });
  });

  it('leaves textFound off uploads still being read', async () => {
    const user = newUserId();
    const id = newUploadId();
    await svc.publish('upload.completed.v1', completed(id, user));
    await eventually(async () => (await svc.db('uploads').where({ id }).first()) !== undefined);
    const [listed] = getUploadsResponseSchema.parse((await svc.get('/api/getUploads', user)).body).data.uploads;
    expect(listed).not.toHaveProperty('textFound');
    expect((await svc.get(`/api/checkUploadStatus/${id}`, user)).body.data).not.toHaveProperty('charged');
  });

  it('answers another user\'s upload exactly like a missing one', async () => {
    const owner = newUserId();
    const id = await processedUpload(owner);
    const stranger = newUserId();
    for (const path of [`/api/checkUploadStatus/${id}`, `/api/getUploadDetails/${id}`, `/api/getUploadDetailsOld/${id}`]) {
      const theirs = await svc.get(path, stranger);
      const missing = await svc.get(path.replace(id, newUploadId()), stranger);
      expect(theirs.status, path).toBe(404);
      expect(theirs.body.error.code).toBe(missing.body.error.code);
      expect(theirs.body.error.message).toBe(missing.body.error.message);
      expect((await svc.get(path, owner)).status, path).toBe(200);
    }
  });

  it('answers "Results not yet available." while the upload is still processing', async () => {
    const user = newUserId();
    const id = newUploadId();
    await svc.publish('upload.completed.v1', completed(id, user));
    await svc.publish('frames.extracted.v1', extracted(id, 3));
    await svc.publish('ocr.completed.v1', ocr(id, 0, [detection('x', 0)]));
    await eventually(async () => (await svc.get(`/api/checkUploadStatus/${id}`, user)).body?.data?.framesDone === 1);
    for (const path of [`/api/getUploadDetails/${id}`, `/api/getUploadDetailsOld/${id}`]) {
      const res = await svc.get(path, user);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'results/not-ready', message: 'Results not yet available.' });
    }
  });

  it('says how many uploads are ahead in the queue while none of an upload\'s frames has been read', async () => {
    const status = async (id: string, user: string) => (await svc.get(`/api/checkUploadStatus/${id}`, user)).body.data;
    const [first, second] = [newUploadId(), newUploadId()];
    const [alice, bob] = [newUserId(), newUserId()];
    await svc.publish('upload.completed.v1', completed(first, alice, { engine: 'cloud' }));
    await svc.publish('frames.extracted.v1', extracted(first, 2));
    await eventually(async () => (await status(first, alice))?.framesTotal === 2);
    await svc.publish('upload.completed.v1', completed(second, bob, { engine: 'cloud' }));
    await svc.publish('frames.extracted.v1', extracted(second, 2));
    await eventually(async () => (await status(second, bob))?.framesTotal === 2);

    // Other tests' unfinished uploads may be ahead of both: the second has exactly one more, the first.
    const aheadOfFirst = (await status(first, alice)).uploadsAhead;
    expect(await status(second, bob)).toMatchObject({ status: 'processing', framesDone: 0, uploadsAhead: aheadOfFirst + 1 });
    // Another engine's queue is not this one's.
    const server = newUploadId();
    await svc.publish('upload.completed.v1', completed(server, bob, { engine: 'server' }));
    await eventually(async () => (await status(server, bob))?.status === 'uploaded');
    expect((await status(second, bob)).uploadsAhead).toBe(aheadOfFirst + 1);

    // The first is done: one fewer ahead of the second.
    for (const i of [0, 1]) await svc.publish('ocr.completed.v1', ocr(first, i, [detection('x', 0)]));
    await eventually(async () => (await status(first, alice)).status === 'processed');
    expect((await status(second, bob)).uploadsAhead).toBe(aheadOfFirst);
    // Its frames are being read: it waits for nobody any more.
    await svc.publish('ocr.completed.v1', ocr(second, 0, [detection('y', 0)]));
    await eventually(async () => (await status(second, bob)).framesDone === 1);
    expect((await status(second, bob)).uploadsAhead).toBe(0);
  });

  it('answers the status of an upload the upload service settled a moment ago, before its event is here, to its owner only', async () => {
    const [owner, stranger] = [newUserId(), newUserId()];
    const [uploaded, failed] = [newUploadId(), newUploadId()];
    svc.uploadService.settle(owner, { uploadID: uploaded, status: 'uploaded', engine: 'server', completedAt: new Date().toISOString(), failureReason: null });
    svc.uploadService.settle(owner, { uploadID: failed, status: 'failed', engine: 'server', completedAt: null, failureReason: 'meter.jpg is not a photo: its content is not PNG or JPEG.' });

    const status = await svc.get(`/api/checkUploadStatus/${uploaded}`, owner);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ uploadID: uploaded, status: 'uploaded', framesDone: 0, framesTotal: null, failureReason: null });
    expect((await svc.get(`/api/checkUploadStatus/${failed}`, owner)).body.data).toMatchObject({ status: 'failed', failureReason: 'meter.jpg is not a photo: its content is not PNG or JPEG.' });
    const theirs = await svc.get(`/api/checkUploadStatus/${uploaded}`, stranger);
    const missing = await svc.get(`/api/checkUploadStatus/${newUploadId()}`, stranger);
    expect([theirs.status, theirs.body.error]).toEqual([404, { ...missing.body.error, correlationId: theirs.body.error.correlationId }]);

    // Once the event is here, results' own record answers, with or without the upload service.
    await svc.deliver('upload.completed.v1', completed(uploaded, owner));
    svc.uploadService.failWith = 500;
    try {
      expect((await svc.get(`/api/checkUploadStatus/${uploaded}`, owner)).body.data).toMatchObject({ uploadID: uploaded, status: 'uploaded' });
      const unknown = await svc.get(`/api/checkUploadStatus/${failed}`, owner);
      expect([unknown.status, unknown.body.error.code]).toEqual([503, 'results/upload-service-unavailable']);
    } finally {
      svc.uploadService.failWith = undefined;
    }
  });

  it("refuses calls without the user's own access token (401), whatever headers they carry, and bad queries (400)", async () => {
    expect((await svc.get('/api/getUploads')).status).toBe(401);
    expect((await svc.get(`/api/checkUploadStatus/${newUploadId()}`)).status).toBe(401);
    expect((await svc.get(`/api/getUploadDetails/${newUploadId()}`)).status).toBe(401);
    expect((await svc.post('/api/deleteUploads', { uploads: [newUploadId()], deleteUploads: true })).status).toBe(401);
    const spoofed = await svc.service.get('/api/getUploads', { headers: { 'x-user-id': 'someone' } });
    expect(spoofed.status).toBe(401);
    const badMode = await svc.get(`/api/getUploadDetails/${newUploadId()}?mode=charts`, newUserId());
    expect(badMode.status).toBe(400);
    expect(badMode.body.error.message).toContain('mode must be');
    const unconfirmed = await svc.post('/api/deleteUploads', { uploads: [newUploadId()] }, newUserId());
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.message).toContain('deleteUploads must be true');
  });

  it('deletes the caller\'s uploads, rows and every stored object, and leaves other users\' alone', async () => {
    const user = newUserId();
    const mine = await processedUpload(user);
    const other = newUserId();
    const theirs = await processedUpload(other);
    expect(await svc.ctx.storage.list(`uploads/${mine}`)).toHaveLength(5);

    const res = await svc.post('/api/deleteUploads', { uploads: [mine, theirs, newUploadId()], deleteUploads: true }, user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: [mine] } });

    expect(await svc.ctx.storage.list(`uploads/${mine}`)).toEqual([]);
    expect(await svc.db('uploads').where({ id: mine }).first()).toBeUndefined();
    expect(await svc.db('frames').where({ upload_id: mine })).toEqual([]);
    expect(await svc.db('upload_results').where({ upload_id: mine })).toEqual([]);
    // Its owner is told it was deleted; anyone else gets the answer of an id that never existed.
    for (const path of [`/api/checkUploadStatus/${mine}`, `/api/getUploadDetails/${mine}`, `/api/getUploadDetailsOld/${mine}`]) {
      const gone = await svc.get(path, user);
      expect(gone.status).toBe(410);
      expect(gone.body.error).toMatchObject({ code: 'uploads/deleted', message: 'This upload was deleted, with its files and results.' });
      const stranger = await svc.get(path, other);
      const never = await svc.get(path.replace(mine, newUploadId()), other);
      expect([stranger.status, stranger.body.error.code]).toEqual([404, 'uploads/not-found']);
      expect(stranger.body.error.message).toBe(never.body.error.message);
    }

    expect(await svc.ctx.storage.list(`uploads/${theirs}`)).toHaveLength(5);
    expect((await svc.get(`/api/checkUploadStatus/${theirs}`, other)).body.data.status).toBe('processed');
  });

  it('the retention job deletes uploads older than RETENTION_DAYS with their objects, and keeps newer ones', async () => {
    const user = newUserId();
    const old = await processedUpload(user, { createdAt: new Date(Date.now() - (svc.config.RETENTION_DAYS + 1) * DAY_MS) });
    const recent = await processedUpload(user, { createdAt: new Date(Date.now() - (svc.config.RETENTION_DAYS - 1) * DAY_MS) });

    const { runRetention } = await import('../src/domain/deletion.js');
    const removed = await runRetention(svc.ctx);
    expect(removed).toContain(old);
    expect(removed).not.toContain(recent);
    expect(await svc.ctx.storage.list(`uploads/${old}`)).toEqual([]);
    expect(await svc.db('uploads').where({ id: old }).first()).toBeUndefined();
    expect(await svc.ctx.storage.list(`uploads/${recent}`)).toHaveLength(5);

    // Two days later the recent one is past the limit too.
    expect(await runRetention(svc.ctx, new Date(Date.now() + 2 * DAY_MS))).toContain(recent);
    expect(await svc.db('uploads').where({ id: recent }).first()).toBeUndefined();
  });
});
