// What results does so that credits (and storage) come back: deletions tell billing and stay deleted, failed
// uploads lose their files, and stalled uploads are failed by the watchdog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUploadsResponseSchema } from '@frametext/contracts';
import { purgeStoredFiles, runRetention } from '../src/domain/deletion.js';
import { failStalledUploads } from '../src/domain/watchdog.js';
import { completed, detection, extracted, frameKey, newUploadId, newUserId, ocr, thumbKey } from './fixtures.js';
import { eventually, startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults({}, {}, ['upload.processed.v1', 'upload.deleted.v1', 'upload.failed.v1']);
});
afterAll(async () => {
  await svc?.stop();
});

const MINUTE_MS = 60_000;
const published = (type: string, id: string) => svc.published.filter((p) => p.type === type && p.data.uploadId === id);
const row = (id: string) => svc.db('uploads').where({ id }).first();
/** Publishes an event and waits until results has handled it. */
const deliver: TestResults['deliver'] = (type, data) => svc.deliver(type, data);

const uploadInProgress = (user: string, frames: number, read: number) => svc.storedUpload(user, frames, read);

describe('deleting an upload mid-processing', () => {
  it('publishes upload.deleted.v1 for billing, and late events bring back nothing and finish nothing', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 3, 1);
    const res = await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user);
    expect(res.body).toEqual({ data: { deleted: [id] } });
    await eventually(() => published('upload.deleted.v1', id).length === 1);
    expect(published('upload.deleted.v1', id)[0]!.data).toEqual({ uploadId: id, userId: user, framesRead: 1 });
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toEqual([]);

    // The pipeline did not know: its frames keep coming, frame-extraction fails on the missing source, a copy of the upload arrives again.
    await deliver('ocr.completed.v1', ocr(id, 1, [detection('late', 0)]));
    await deliver('ocr.completed.v1', ocr(id, 2, [detection('later', 0)]));
    await deliver('frames.extracted.v1', extracted(id, 3));
    await deliver('upload.failed.v1', { uploadId: id, userId: user, stage: 'extraction', reason: 'The uploaded file is no longer in storage.' });
    await deliver('upload.completed.v1', completed(id, user));
    expect(await row(id)).toBeUndefined();
    expect(await svc.db('frames').where({ upload_id: id })).toEqual([]);
    // Still deleted to its owner.
    expect((await svc.get(`/api/checkUploadStatus/${id}`, user)).status).toBe(410);
    expect((await svc.get('/api/getUploads', user)).body.data.uploads).toEqual([]);
    expect(published('upload.processed.v1', id)).toEqual([]);
  });

  it('removes files a worker writes after the delete, at every purge pass for PURGE_WINDOW_HOURS, then drops the tombstone', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 2, 0);
    await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user);
    // frame-extraction was still running: it writes a frame after the delete.
    await svc.ctx.storage.put(frameKey(id, 1), Buffer.from('late frame'), { contentType: 'image/jpeg' });
    const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE_MS);

    // Not due yet (the delete emptied the folder and scheduled the next pass PURGE_REPEAT_MINUTES later).
    await purgeStoredFiles(svc.ctx);
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toHaveLength(1);
    await purgeStoredFiles(svc.ctx, later(svc.config.PURGE_REPEAT_MINUTES + 1));
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toEqual([]);
    expect(await svc.db('purges').where({ upload_id: id }).first()).toMatchObject({ kind: 'deleted' });

    // Past the window, one last pass empties the folder and the tombstone goes.
    await svc.ctx.storage.put(thumbKey(id, 1), Buffer.from('very late thumbnail'), { contentType: 'image/jpeg' });
    await purgeStoredFiles(svc.ctx, later(svc.config.PURGE_WINDOW_HOURS * 60 + 5));
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toEqual([]);
    expect(await svc.db('purges').where({ upload_id: id }).first()).toBeUndefined();
  });

  it('tells billing the frames read when it was deleted, leaving out frames the engine could not read', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 5, 2);
    await deliver('ocr.completed.v1', ocr(id, 2, [], 'The frame could not be read as an image.'));
    await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user);
    await eventually(() => published('upload.deleted.v1', id).length === 1);
    expect(published('upload.deleted.v1', id)[0]!.data).toEqual({ uploadId: id, userId: user, framesRead: 2 });
  });

  it('retention deletes the same way: upload.deleted.v1, and a tombstone', async () => {
    const user = newUserId();
    const id = newUploadId();
    await deliver('upload.completed.v1', completed(id, user, { createdAt: new Date(Date.now() - (svc.config.RETENTION_DAYS + 1) * 86_400_000).toISOString() }));
    expect(await runRetention(svc.ctx)).toContain(id);
    await eventually(() => published('upload.deleted.v1', id).length === 1);
    await deliver('frames.extracted.v1', extracted(id, 2));
    expect(await row(id)).toBeUndefined();
  });
});

describe('deleting an upload results has not heard of', () => {
  it('one never completed is cancelled by the upload service and listed as deleted; its link then says deleted', async () => {
    const user = newUserId();
    const id = newUploadId();
    svc.uploadService.startOpen(user, id);
    const res = await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user);
    expect(res.body).toEqual({ data: { deleted: [id] } });
    expect((await svc.get(`/api/checkUploadStatus/${id}`, user)).status).toBe(410);
    // The upload service told billing itself (upload.cancelled.v1); results has no hold to name.
    expect(published('upload.deleted.v1', id)).toEqual([]);
    // Someone else deleting it, or the owner again, changes nothing.
    expect((await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, newUserId())).body).toEqual({ data: { deleted: [] } });
    expect((await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user)).body).toEqual({ data: { deleted: [] } });
  });

  it('one completed a moment ago is deleted before its event arrives, which then brings nothing back', async () => {
    const user = newUserId();
    const id = newUploadId();
    svc.uploadService.settle(user, { uploadID: id, status: 'uploaded', engine: 'server', completedAt: new Date().toISOString(), failureReason: null });
    const res = await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, user);
    expect(res.body).toEqual({ data: { deleted: [id] } });
    await eventually(() => published('upload.deleted.v1', id).length === 1);
    expect(published('upload.deleted.v1', id)[0]!.data).toEqual({ uploadId: id, userId: user, framesRead: 0 });
    await deliver('upload.completed.v1', completed(id, user));
    expect(await row(id)).toBeUndefined();
    expect((await svc.get(`/api/checkUploadStatus/${id}`, user)).status).toBe(410);
  });

  it('does not ask the upload service when results has every id, and deletes nothing when it cannot answer', async () => {
    const user = newUserId();
    const mine = await uploadInProgress(user, 2, 0);
    const asked = svc.uploadService.deletionsAsked.length;
    expect((await svc.post('/api/deleteUploads', { uploads: [mine], deleteUploads: true }, user)).body).toEqual({ data: { deleted: [mine] } });
    expect(svc.uploadService.deletionsAsked).toHaveLength(asked);

    const kept = await uploadInProgress(user, 2, 0);
    svc.uploadService.failWith = 500;
    try {
      const res = await svc.post('/api/deleteUploads', { uploads: [kept, newUploadId()], deleteUploads: true }, user);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('results/upload-service-unavailable');
    } finally {
      svc.uploadService.failWith = undefined;
    }
    expect(await row(kept)).toBeDefined();
  });
});

describe('a failed upload', () => {
  it('keeps its row and reason, loses its files at the next purge pass, and lists without a thumbnail', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 2, 1);
    expect((await svc.get('/api/getUploads', user)).body.data.uploads[0].imageUrl).toContain(`/files/uploads/${id}/thumbs/`);
    await deliver('upload.failed.v1', { uploadId: id, userId: user, stage: 'ocr', reason: 'Text recognition failed on this upload.' });

    await purgeStoredFiles(svc.ctx);
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toEqual([]);
    const status = (await svc.get(`/api/checkUploadStatus/${id}`, user)).body.data;
    expect(status).toMatchObject({ status: 'failed', failureReason: 'Text recognition failed on this upload.' });
    const [listed] = getUploadsResponseSchema.parse((await svc.get('/api/getUploads', user)).body).data.uploads;
    expect(listed).toMatchObject({ id, status: 'failed', imageUrl: null });
  });

  it('a processed upload keeps its files when a late failure comes', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 1, 1);
    await eventually(async () => (await row(id))?.status === 'processed');
    await deliver('upload.failed.v1', { uploadId: id, userId: user, stage: 'extraction', reason: 'Too late.' });
    await purgeStoredFiles(svc.ctx);
    expect((await row(id)).status).toBe('processed');
    expect(await svc.ctx.storage.list(`uploads/${id}`)).toHaveLength(3);
  });
});

describe('the watchdog', () => {
  const stallFor = (id: string, minutes: number) => svc.db('uploads').where({ id }).update({ last_progress_at: new Date(Date.now() - minutes * MINUTE_MS) });

  it('fails uploads that made no progress for STALLED_AFTER_MINUTES, with a reason a person can read, and tells billing', async () => {
    const user = newUserId();
    const stuckInOcr = await uploadInProgress(user, 4, 1);
    const stuckBeforeFrames = newUploadId();
    await deliver('upload.completed.v1', completed(stuckBeforeFrames, user));
    const moving = await uploadInProgress(user, 2, 0);
    const limit = svc.config.STALLED_AFTER_MINUTES;
    await stallFor(stuckInOcr, limit + 1);
    await stallFor(stuckBeforeFrames, limit + 1);
    await stallFor(moving, limit - 1);

    const failed = await failStalledUploads(svc.ctx);
    expect(failed).toEqual(expect.arrayContaining([stuckInOcr, stuckBeforeFrames]));
    expect(failed).not.toContain(moving);
    expect((await svc.get(`/api/checkUploadStatus/${stuckInOcr}`, user)).body.data).toMatchObject({
      status: 'failed',
      failureReason: `Processing stopped: no frame was read for ${limit} minutes (1 of 4 done). The credits held for it have been returned; please upload it again.`,
    });
    expect((await row(stuckBeforeFrames)).failure_reason).toMatch(/^Processing stopped: the frames were not extracted within/);
    await eventually(() => published('upload.failed.v1', stuckInOcr).length === 1 && published('upload.failed.v1', stuckBeforeFrames).length === 1);
    expect(published('upload.failed.v1', stuckInOcr)[0]!.data).toMatchObject({ userId: user, stage: 'ocr' });
    expect(published('upload.failed.v1', stuckBeforeFrames)[0]!.data).toMatchObject({ userId: user, stage: 'extraction' });
    expect((await row(moving)).status).toBe('processing');

    // Its files go, and its late frames change nothing.
    await purgeStoredFiles(svc.ctx);
    expect(await svc.ctx.storage.list(`uploads/${stuckInOcr}`)).toEqual([]);
    for (const i of [1, 2, 3]) await deliver('ocr.completed.v1', ocr(stuckInOcr, i, [detection('late', 0)]));
    expect((await row(stuckInOcr)).status).toBe('failed');
    expect(published('upload.processed.v1', stuckInOcr)).toEqual([]);
    // Nothing is failed twice.
    expect(await failStalledUploads(svc.ctx)).not.toContain(stuckInOcr);
  });

  it('counts a newly read frame as progress, and a second copy of a frame as none', async () => {
    const user = newUserId();
    const id = await uploadInProgress(user, 3, 1);
    const limit = svc.config.STALLED_AFTER_MINUTES;
    await stallFor(id, limit + 1);
    await deliver('ocr.completed.v1', ocr(id, 1, [detection('new frame', 0)]));
    expect(await failStalledUploads(svc.ctx)).not.toContain(id);

    await stallFor(id, limit + 1);
    await deliver('ocr.completed.v1', ocr(id, 1, [detection('the same frame again', 0)]));
    expect(await failStalledUploads(svc.ctx)).toContain(id);
  });
});
