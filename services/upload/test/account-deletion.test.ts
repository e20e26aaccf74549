// user.deleted.v1: the person deleted their account. What they still have open here is cancelled (billing releases
// its credits) and its files removed; their uploads stop counting and lose their names; new starts are refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope } from '@frametext/service-kit';
import { eventually } from '@frametext/service-kit/testing';
import { makeMedia, startUpload, videoRequest, type Media, type TestUpload } from './helpers.js';

let svc: TestUpload;
let media: Media;

beforeAll(async () => {
  [svc, media] = await Promise.all([startUpload({}, ['upload.cancelled.v1']), makeMedia()]);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await media?.cleanup();
});

const accountDeleted = (uid: string) => ({ uid, deletedAt: new Date().toISOString() });
const deliver = async (uid: string) => svc.service.deliver('user.deleted.v1', accountDeleted(uid));
const cancels = async (userId: string) => (await svc.outbox()).filter((e) => e.type === 'upload.cancelled.v1' && e.data.userId === userId);
const row = (id: string) => svc.db('uploads').where({ id }).first();

async function started(user: string, name = 'Charger session'): Promise<{ uploadID: string; urls: string[] }> {
  const res = await svc.post('/api/getUploadURL', videoRequest({ uploadName: name, duration: 2, targetFrameRate: 1 }), { user });
  expect(res.status).toBe(200);
  return res.body;
}

/** Every row of the upload service's tables, as text. */
async function everyRowAsText(): Promise<string> {
  const tables = (await svc.db.raw<{ rows: { table_name: string }[] }>(`select table_name from information_schema.tables where table_schema = current_schema()`)).rows;
  const dumps = await Promise.all(tables.map(async ({ table_name }) => (await svc.db.raw<{ rows: { row: string }[] }>(`select t::text as row from ?? t`, [table_name])).rows.map((r) => r.row)));
  return dumps.flat().join('\n');
}

describe('user.deleted.v1', () => {
  it('cancels the uploads still open (billing releases their holds), removes their files, and leaves others alone', async () => {
    const me = randomUUID();
    const other = randomUUID();
    const uploading = await started(me);
    expect((await svc.put(uploading.urls[0]!, media.mp4, 'video/mp4')).status).toBeLessThan(300);
    const done = await started(me);
    await svc.put(done.urls[0]!, media.mp4, 'video/mp4');
    expect((await svc.post('/api/uploadComplete', { uploadID: done.uploadID }, { user: me })).status).toBe(200);
    const theirs = await started(other);
    await svc.put(theirs.urls[0]!, media.mp4, 'video/mp4');

    await deliver(me);

    // The open one is cancelled for billing; the uploaded one is results' to delete, so nothing is said about it here.
    expect((await cancels(me)).map((e) => e.data)).toEqual([{ uploadId: uploading.uploadID, userId: me, reason: 'account-deleted' }]);
    await eventually(async () => (await svc.storage.list(`uploads/${uploading.uploadID}`)).length === 0);
    const completing = await svc.post('/api/uploadComplete', { uploadID: uploading.uploadID }, { user: me });
    expect(completing.status).toBe(400);
    expect(completing.body.error).toMatchObject({ code: 'upload/account-deleted', message: 'This upload was cancelled: its account has been deleted.' });
    expect((await svc.outbox()).filter((e) => e.type === 'upload.completed.v1' && e.data.uploadId === uploading.uploadID)).toEqual([]);

    // Someone else's upload goes on as if nothing happened.
    expect((await svc.post('/api/uploadComplete', { uploadID: theirs.uploadID }, { user: other })).status).toBe(200);
    expect(await cancels(other)).toEqual([]);
  });

  it('forgets the uploads for the quota and keeps no names: neither the upload names nor the file names', async () => {
    const me = randomUUID();
    const name = `Holiday ${randomUUID()}`;
    const done = await started(me, name);
    await svc.put(done.urls[0]!, media.mp4, 'video/mp4');
    expect((await svc.post('/api/uploadComplete', { uploadID: done.uploadID }, { user: me })).status).toBe(200);
    await started(me, name);
    // Sent: the completion named the upload. Its outbox row goes too once the relay has sent it.
    await eventually(async () => (await svc.db('outbox').whereNotNull('published_at').whereRaw(`envelope->'data'->>'uploadId' = ?`, [done.uploadID])).length === 1);
    expect(await everyRowAsText()).toContain(name);

    await deliver(me);

    expect(await everyRowAsText()).not.toContain(name);
    const rows = await svc.db('uploads').where({ user_id: me });
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ name: '', file_names: null, deleted_at: expect.any(Date) });
  });

  it('refuses a start or a local run that comes after the deletion (403), before asking billing for anything', async () => {
    const me = randomUUID();
    await deliver(me);
    const calls = svc.billing.calls.length;
    const res = await svc.post('/api/getUploadURL', videoRequest(), { user: me });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'upload/account-deleted', message: 'This account has been deleted.' });
    expect(svc.billing.calls.length).toBe(calls);
    const local = await svc.post('/api/logLocalUpload', { uploadID: `local-${Date.now()}`, uploadName: 'Local', duration: 10, targetFrameRate: 1 / 5, fileName: 'clip.mp4', ocrType: 'local' }, { user: me });
    expect(local.status).toBe(403);
    expect(await svc.db('uploads').where({ user_id: me })).toEqual([]);
  });

  it('cancels a start that was waiting for billing when the account went: the start answers 503 and its hold comes back', async () => {
    const me = randomUUID();
    let open!: () => void;
    svc.billing.gate = new Promise<void>((resolve) => (open = resolve));
    let answer: Promise<{ status: number; body: { error?: { code: string } } }>;
    try {
      answer = svc.post('/api/getUploadURL', videoRequest(), { user: me });
      await eventually(async () => (await svc.db('uploads').where({ user_id: me, status: 'reserving' })).length === 1);
      await deliver(me);
    } finally {
      svc.billing.gate = undefined;
      open();
    }
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.body.error?.code).toBe('upload/start-failed');
    const [held] = svc.billing.calls.filter((c) => c.userId === me);
    // Billing held credits for it, and hears that the upload is cancelled.
    expect(svc.billing.holds(held!.uploadId)).toBe(true);
    expect((await cancels(me)).map((e) => e.data)).toEqual([{ uploadId: held!.uploadId, userId: me, reason: 'account-deleted' }]);
    expect(await row(held!.uploadId)).toMatchObject({ status: 'failed', failure_code: 'upload/account-deleted' });
  });

  it('is replay-safe: a redelivery and a re-publication cancel nothing twice', async () => {
    const me = randomUUID();
    await started(me);
    const envelope = buildEnvelope('user.deleted.v1', accountDeleted(me));
    await svc.service.publishEnvelope(envelope);
    await svc.service.waitHandled(envelope.id);
    await svc.service.publishEnvelope(envelope);
    await deliver(me);
    // A marker behind them: once it is handled and its cancel seen, the copies before it have been handled too.
    const marker = randomUUID();
    await started(marker);
    await deliver(marker);
    const sent = () => svc.published().filter((e) => e.type === 'upload.cancelled.v1');
    await eventually(() => sent().some((e) => e.data.userId === marker));
    expect(sent().filter((e) => e.data.userId === me)).toHaveLength(1);
  });
});
