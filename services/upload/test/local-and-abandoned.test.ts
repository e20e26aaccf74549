import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@frametext/service-kit/testing';
import { failAbandonedUploads } from '../src/domain/abandoned-uploads.js';
import { startUpload, videoRequest, type TestUpload } from './helpers.js';

let svc: TestUpload;

beforeAll(async () => {
  svc = await startUpload();
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

describe('POST /api/logLocalUpload', () => {
  const local = { uploadID: 'local-1700000000000', uploadName: 'Dashcam', duration: 100, targetFrameRate: 1 / 5, fileName: 'dash.MOV', ocrType: 'local' };

  it('records a local run with its cost, without reserving credits, and answers the same when logged again', async () => {
    const user = uniqueName('local_user');
    const calls = svc.billing.calls.length;
    const res = await svc.post('/api/logLocalUpload', local, { user });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { uploadID: local.uploadID, creditCost: 1 } }); // 20 frames x 0.05
    expect(svc.billing.calls.length).toBe(calls);
    const row = await svc.db('uploads').where({ user_id: user, id: local.uploadID }).first();
    expect(row).toMatchObject({ kind: 'local', engine: 'local', frames_requested: 20, interval_seconds: 5, mime_type: 'video/quicktime', file_names: ['dash.MOV'] });

    expect((await svc.post('/api/logLocalUpload', local, { user })).body).toEqual(res.body);
    // Another user's browser may pick the same local id: it is a different record.
    expect((await svc.post('/api/logLocalUpload', local, { user: uniqueName('local_user') })).status).toBe(200);
    expect(await svc.db('uploads').where({ user_id: user })).toHaveLength(1);
  });

  it('refuses more than 200 frames, an id without local-, and is not completable through uploadComplete', async () => {
    const user = uniqueName('local_user');
    const tooMany = await svc.post('/api/logLocalUpload', { ...local, duration: 1001 }, { user });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'upload/too-many-frames' });
    expect((await svc.post('/api/logLocalUpload', { ...local, uploadID: 'abc' }, { user })).status).toBe(400);
    await svc.post('/api/logLocalUpload', local, { user });
    expect((await svc.post('/api/uploadComplete', { uploadID: local.uploadID }, { user })).status).toBe(404);
  });
});

describe('abandoned uploads', () => {
  it('marks uploads still uploading after a day as failed, and leaves recent and finished ones alone', async () => {
    const user = uniqueName('absent_user');
    const old = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body.uploadID as string;
    const recent = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body.uploadID as string;
    await svc.db('uploads').where({ id: old }).update({ created_at: new Date(Date.now() - 25 * 3_600_000) });

    expect(await failAbandonedUploads(svc.ctx)).toBeGreaterThanOrEqual(1);
    const rows = await svc.db('uploads').where({ user_id: user }).select('id', 'status', 'failure_reason');
    expect(rows.find((r) => r.id === old)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/never completed/) });
    expect(rows.find((r) => r.id === recent)!.status).toBe('uploading');
    // No event: billing's own sweep releases reservations that were never confirmed.
    expect((await svc.outbox()).filter((e) => e.data.uploadId === old)).toEqual([]);

    const late = await svc.post('/api/uploadComplete', { uploadID: old }, { user });
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('upload/abandoned');
  });
});
