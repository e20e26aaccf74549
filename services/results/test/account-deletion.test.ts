// user.deleted.v1: a person deleted their account, and every upload of theirs goes as deleteUploads removes one.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope } from '@frametext/service-kit';
import { completed, detection, extracted, newUploadId, newUserId, ocr } from './fixtures.js';
import { eventually, startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults({}, {}, ['upload.deleted.v1', 'upload.processed.v1']);
});
afterAll(async () => {
  await svc?.stop();
});

const deletedEvents = (userId: string) => svc.published.filter((p) => p.type === 'upload.deleted.v1' && p.data.userId === userId);
const filesOf = (id: string) => svc.ctx.storage.list(`uploads/${id}`);
const deliver: TestResults['deliver'] = (type, data) => svc.deliver(type, data);
const accountDeleted = (uid: string) => ({ uid, deletedAt: new Date().toISOString() });

const uploadOf = (user: string, frames: number, read: number) => svc.storedUpload(user, frames, read);

describe('user.deleted.v1', () => {
  it('deletes every upload of the person, processed or not: rows, files, one upload.deleted.v1 each; others keep theirs', async () => {
    const me = newUserId();
    const other = newUserId();
    const processed = await uploadOf(me, 2, 2);
    const processing = await uploadOf(me, 3, 1);
    const theirs = await uploadOf(other, 2, 2);
    expect((await svc.get('/api/getUploads', me)).body.data.uploads).toHaveLength(2);
    // One deleted earlier by the person: which uploads they deleted goes with the account too.
    const deletedBefore = await uploadOf(me, 1, 1);
    expect((await svc.post('/api/deleteUploads', { uploads: [deletedBefore], deleteUploads: true }, me)).status).toBe(200);
    expect(await svc.db('deleted_uploads').where({ user_id: me })).toHaveLength(1);

    await deliver('user.deleted.v1', accountDeleted(me));
    expect(await svc.db('deleted_uploads').where({ user_id: me })).toEqual([]);

    expect((await svc.get('/api/getUploads', me)).body.data.uploads).toEqual([]);
    for (const id of [processed, processing]) {
      expect((await svc.get(`/api/checkUploadStatus/${id}`, me)).status).toBe(404);
      expect(await svc.db('frames').where({ upload_id: id })).toEqual([]);
      expect(await svc.db('purges').where({ upload_id: id }).first()).toMatchObject({ kind: 'deleted' });
      await eventually(async () => (await filesOf(id)).length === 0);
    }
    await eventually(() => deletedEvents(me).length === 3);
    expect(deletedEvents(me).map((e) => e.data).sort((a, b) => a.uploadId.localeCompare(b.uploadId))).toEqual(
      // Each says how many of its frames were read: billing charges those for an upload deleted mid-processing.
      [
        { uploadId: processed, userId: me, framesRead: 2 },
        { uploadId: processing, userId: me, framesRead: 1 },
        { uploadId: deletedBefore, userId: me, framesRead: 1 },
      ].sort((a, b) => a.uploadId.localeCompare(b.uploadId)),
    );
    expect((await svc.get('/api/getUploads', other)).body.data.uploads.map((u: { id: string }) => u.id)).toEqual([theirs]);
    expect(await filesOf(theirs)).not.toEqual([]);
  });

  it('late events of the deleted uploads bring nothing back, and an upload completed just before the deletion is deleted on arrival', async () => {
    const me = newUserId();
    const processing = await uploadOf(me, 2, 0);
    await deliver('user.deleted.v1', accountDeleted(me));

    // The OCR workers did not know: their frames still arrive.
    await deliver('ocr.completed.v1', ocr(processing, 0, [detection('late', 0)]));
    await deliver('ocr.completed.v1', ocr(processing, 1, [detection('later', 0)]));
    expect(svc.published.filter((p) => p.type === 'upload.processed.v1' && p.data.uploadId === processing)).toEqual([]);

    // uploadComplete answered a moment before the deletion; its upload.completed.v1 comes after user.deleted.v1.
    const straggler = newUploadId();
    await svc.ctx.storage.put(`uploads/${straggler}/sealed/1/source/video.mp4`, Buffer.from('video'), { contentType: 'video/mp4' });
    await deliver('upload.completed.v1', completed(straggler, me));
    expect(await svc.db('uploads').where({ id: straggler }).first()).toBeUndefined();
    expect((await svc.get('/api/getUploads', me)).body.data.uploads).toEqual([]);
    // Billing hears of it, so the credits it holds come back; its files go.
    await eventually(() => deletedEvents(me).some((e) => e.data.uploadId === straggler));
    await eventually(async () => (await filesOf(straggler)).length === 0);
    // Its frames, extracted anyway, change nothing either.
    await deliver('frames.extracted.v1', extracted(straggler, 2));
    expect(await svc.db('uploads').where({ id: straggler }).first()).toBeUndefined();
    expect(deletedEvents(me)).toHaveLength(2);
  });

  it('is replay-safe: a redelivery and a re-publication change nothing', async () => {
    const me = newUserId();
    const id = await uploadOf(me, 1, 1);
    const envelope = buildEnvelope('user.deleted.v1', accountDeleted(me));
    await svc.service.publishEnvelope(envelope);
    await svc.service.waitHandled(envelope.id);
    await eventually(() => deletedEvents(me).length === 1);

    await svc.service.publishEnvelope(envelope);
    await deliver('user.deleted.v1', accountDeleted(me));
    // A marker behind them: once it is handled, both copies have been too.
    const marker = newUserId();
    await deliver('user.deleted.v1', accountDeleted(marker));
    const written = (await svc.service.outbox()).filter((e) => e.type === 'upload.deleted.v1' && e.data.userId === me);
    expect(written.map((e) => e.data)).toEqual([{ uploadId: id, userId: me, framesRead: 1 }]);
    expect(await svc.db('deleted_users').whereIn('user_id', [me, marker]).count({ n: '*' }).first()).toEqual({ n: 2 });
  });

  it('a person results never heard of is remembered all the same', async () => {
    const stranger = randomUUID();
    await deliver('user.deleted.v1', accountDeleted(stranger));
    const id = newUploadId();
    await deliver('upload.completed.v1', completed(id, stranger));
    expect(await svc.db('uploads').where({ id }).first()).toBeUndefined();
    await eventually(() => deletedEvents(stranger).length === 1);
  });
});
