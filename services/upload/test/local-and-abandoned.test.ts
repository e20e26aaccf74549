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

  it('charges the run through billing once and records it; logging it again charges nothing and answers the same cost', async () => {
    const user = uniqueName('local_user');
    svc.billing.balances.set(user, 30);
    const reservations = svc.billing.calls.length;
    const res = await svc.post('/api/logLocalUpload', local, { user });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { uploadID: local.uploadID, creditCost: 1, credits: 29 } }); // 20 frames x 0.05
    expect(svc.billing.calls.length).toBe(reservations);
    // Billing was asked with the user's own token and the upload service's workload token.
    expect(svc.billing.localCalls.at(-1)).toEqual({ uploadId: local.uploadID, userId: user, frames: 20 });
    expect(svc.billing.credentials.at(-1)).toMatchObject({ authorization: expect.stringMatching(/^Bearer /), workload: expect.any(String) });
    const row = await svc.db('uploads').where({ user_id: user, id: local.uploadID }).first();
    expect(row).toMatchObject({ kind: 'local', engine: 'local', frames_requested: 20, interval_seconds: 5, mime_type: 'video/quicktime', file_names: ['dash.MOV'], credit_cost: 1 });

    const again = await svc.post('/api/logLocalUpload', local, { user });
    expect(again.body).toEqual({ data: { uploadID: local.uploadID, creditCost: 1, credits: 29 } });
    expect(svc.billing.balances.get(user)).toBe(29);
    // Another user's browser may pick the same local id: it is a different record, charged to them.
    const other = uniqueName('local_user');
    expect((await svc.post('/api/logLocalUpload', local, { user: other })).status).toBe(200);
    expect(svc.billing.balances.get(other)).toBe(49);
    expect(await svc.db('uploads').where({ user_id: user })).toHaveLength(1);
  });

  it('answers 402 with the spec sentence and records nothing when the credits fall short', async () => {
    const user = uniqueName('local_user');
    svc.billing.balances.set(user, 1);
    const res = await svc.post('/api/logLocalUpload', { ...local, duration: 200, targetFrameRate: 1 }, { user });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'billing/insufficient-credits', message: 'You have 1 credits but this operation requires 10.' });
    expect(await svc.db('uploads').where({ user_id: user })).toHaveLength(0);
    expect(svc.billing.balances.get(user)).toBe(1);
  });

  it('answers 503 and records nothing when billing cannot be asked', async () => {
    const user = uniqueName('local_user');
    svc.billing.failWith = 500;
    try {
      const res = await svc.post('/api/logLocalUpload', { ...local, uploadID: 'local-1700000000001' }, { user });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('upload/billing-unavailable');
    } finally {
      svc.billing.failWith = undefined;
    }
    expect(await svc.db('uploads').where({ user_id: user })).toHaveLength(0);
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
  it('fails uploads still uploading after ABANDONED_AFTER_HOURS, removes their files, and cancels them so billing releases at once', async () => {
    const user = uniqueName('absent_user');
    const old = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body;
    const recent = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body.uploadID as string;
    // Part of the upload arrived before the person left.
    expect((await svc.put(old.urls[0], Buffer.from('half a video'), 'video/mp4')).status).toBeLessThan(300);
    await svc.db('uploads').where({ id: old.uploadID }).update({ created_at: new Date(Date.now() - (svc.config.ABANDONED_AFTER_HOURS + 1) * 3_600_000) });

    expect(await failAbandonedUploads(svc.ctx)).toBeGreaterThanOrEqual(1);
    const rows = await svc.db('uploads').where({ user_id: user }).select('id', 'status', 'failure_reason');
    expect(rows.find((r) => r.id === old.uploadID)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/never completed/) });
    expect(rows.find((r) => r.id === recent)!.status).toBe('uploading');
    expect((await svc.outbox()).filter((e) => e.data.uploadId === old.uploadID)).toEqual([
      { type: 'upload.cancelled.v1', data: { uploadId: old.uploadID, userId: user, reason: 'abandoned' } },
    ]);
    expect((await svc.outbox()).filter((e) => e.data.uploadId === recent)).toEqual([]);
    expect(await svc.storage.list(`uploads/${old.uploadID}`)).toEqual([]);

    const late = await svc.post('/api/uploadComplete', { uploadID: old.uploadID }, { user });
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('upload/abandoned');
    // A second sweep publishes nothing more.
    await failAbandonedUploads(svc.ctx);
    expect((await svc.outbox()).filter((e) => e.data.uploadId === old.uploadID)).toHaveLength(1);
  });
});

describe('POST /internal/deleted-uploads (results deletes uploads it has not heard of)', () => {
  const askToDelete = (uploadIds: string[], user: string, opts: { workload?: string } = { workload: 'results' }) =>
    svc.service.post('/internal/deleted-uploads', { uploadIds }, { user, ...opts });

  it('cancels the owner\'s upload never completed at once, so billing releases its hold, and names one already completed', async () => {
    const user = uniqueName('deleting_user');
    const open = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body;
    // The video was PUT, but uploadComplete never came.
    expect((await svc.put(open.urls[0], Buffer.from('a video, never completed'), 'video/mp4')).status).toBeLessThan(300);
    const never = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body.uploadID as string;
    // One uploadComplete settled a moment ago: results deletes it on its side, nothing is cancelled here.
    const completed = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body.uploadID as string;
    await svc.db('uploads').where({ id: completed }).update({ status: 'uploaded', completed_at: new Date() });

    const stranger = await askToDelete([open.uploadID], uniqueName('stranger'));
    expect(stranger.body).toEqual({ cancelled: [], settled: [] });
    const res = await askToDelete([open.uploadID, never, completed, 'not-an-upload'], user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cancelled: [open.uploadID, never].sort(), settled: [completed] });
    expect((await svc.outbox()).filter((e) => e.data.uploadId === completed)).toEqual([]);
    for (const id of [open.uploadID, never]) {
      expect((await svc.outbox()).filter((e) => e.data.uploadId === id)).toEqual([{ type: 'upload.cancelled.v1', data: { uploadId: id, userId: user, reason: 'deleted' } }]);
    }
    expect(await svc.storage.list(`uploads/${open.uploadID}`)).toEqual([]);
    expect(await svc.db('uploads').where({ id: open.uploadID }).first()).toMatchObject({ status: 'failed', failure_code: 'upload/deleted', deleted_at: expect.any(Date) });

    // Completing it afterwards is refused as deleted; asking again cancels nothing twice.
    const late = await svc.post('/api/uploadComplete', { uploadID: open.uploadID }, { user });
    expect([late.status, late.body.error.code]).toEqual([410, 'upload/deleted']);
    expect((await askToDelete([open.uploadID], user)).body).toEqual({ cancelled: [], settled: [] });
    expect((await svc.outbox()).filter((e) => e.data.uploadId === open.uploadID)).toHaveLength(1);
  });

  it('takes results\' workload token with the user\'s own token, and nothing less', async () => {
    const user = uniqueName('deleting_user');
    const { uploadID } = (await svc.post('/api/getUploadURL', videoRequest(), { user })).body;
    expect((await askToDelete([uploadID], user, {})).status).toBe(401);
    expect((await askToDelete([uploadID], user, { workload: 'billing' })).status).toBe(401);
    expect((await svc.db('uploads').where({ id: uploadID }).first()).status).toBe('uploading');
  });
});
