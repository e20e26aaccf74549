import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@frametext/service-kit/testing';
import { forgetDeletedUpload } from '../src/domain/storage-quota.js';
import { makeMedia, photosRequest, startUpload, videoRequest, type Media, type TestUpload } from './helpers.js';

let svc: TestUpload;
let media: Media;
/** Room for two of the test videos, not three. */
let quota: number;

beforeAll(async () => {
  media = await makeMedia();
  quota = media.mp4.length * 2 + 100;
  svc = await startUpload({ STORAGE_QUOTA_BYTES: String(quota) });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await media?.cleanup();
});

const request = (user: string, overrides: Record<string, unknown> = {}) => svc.post('/api/getUploadURL', videoRequest(overrides), { user });
const complete = (uploadID: string, user: string) => svc.post('/api/uploadComplete', { uploadID }, { user });

/** A video upload as the SPA makes it: request (declaring its size), PUT, complete. */
async function uploadVideo(user: string): Promise<string> {
  const res = await request(user, { size: media.mp4.length });
  expect(res.status).toBe(200);
  await svc.put(res.body.urls[0], media.mp4, 'video/mp4');
  expect((await complete(res.body.uploadID, user)).status).toBe(200);
  return res.body.uploadID;
}

describe('the storage quota at getUploadURL', () => {
  it('refuses declared sizes beyond the quota with 413 and a clear message, before anything is reserved or stored', async () => {
    const user = uniqueName('owner');
    const calls = svc.billing.calls.length;
    const rows = (await svc.db('uploads').count({ n: '*' }))[0]!.n;
    const video = await request(user, { size: quota + 1 });
    expect(video.status).toBe(413);
    expect(video.body.error).toMatchObject({ code: 'upload/quota-exceeded', details: { quotaBytes: quota, usedBytes: 0, neededBytes: quota + 1 } });
    expect(video.body.error.message).toMatch(/^This upload needs .* of storage, and .* of your .* is left\. Delete uploads you no longer need/);
    const photos = await svc.post('/api/getUploadURL', photosRequest([{ name: 'a.png', type: 'image/png' }, { name: 'b.png', type: 'image/png' }], { files: [
      { name: 'a.png', type: 'image/png', lastModified: 1, size: quota - 10 },
      { name: 'b.png', type: 'image/png', lastModified: 2, size: 11 },
    ] }), { user });
    expect(photos.status).toBe(413);
    expect(svc.billing.calls.length).toBe(calls);
    expect((await svc.db('uploads').count({ n: '*' }))[0]!.n).toBe(rows);
  });

  it('counts what open uploads declared and what completed ones hold, per user', async () => {
    const user = uniqueName('owner');
    await uploadVideo(user);
    const open = await request(user, { size: media.mp4.length });
    expect(open.status).toBe(200);
    const third = await request(user, { size: media.mp4.length });
    expect(third.status).toBe(413);
    expect(third.body.error.details).toMatchObject({ usedBytes: media.mp4.length * 2 });
    // Someone else's uploads are theirs alone.
    expect((await request(uniqueName('other'), { size: media.mp4.length })).status).toBe(200);
    // An open upload that fails stops counting.
    await svc.put(open.body.urls[0], Buffer.from('not a video'), 'video/mp4');
    expect((await complete(open.body.uploadID, user)).status).toBe(400);
    expect((await request(user, { size: media.mp4.length })).status).toBe(200);
  });
});

describe('the storage quota at uploadComplete', () => {
  it('fails an upload whose real bytes do not fit, releases its credits through upload.failed.v1 and deletes its objects', async () => {
    const user = uniqueName('owner');
    await uploadVideo(user);
    await uploadVideo(user);
    // Declares nothing, as an older client would: the real bytes decide.
    const res = await request(user);
    expect(res.status).toBe(200);
    await svc.put(res.body.urls[0], media.mp4, 'video/mp4');
    const done = await complete(res.body.uploadID, user);
    expect(done.status).toBe(413);
    expect(done.body.error.code).toBe('upload/quota-exceeded');
    const row = await svc.db('uploads').where({ id: res.body.uploadID }).first();
    expect(row).toMatchObject({ status: 'failed', failure_code: 'upload/quota-exceeded', failure_reason: done.body.error.message });
    const events = (await svc.outbox()).filter((e) => e.data.uploadId === res.body.uploadID);
    expect(events).toEqual([{ type: 'upload.failed.v1', data: { uploadId: res.body.uploadID, userId: user, reason: done.body.error.message, stage: 'upload' } }]);
    expect(await svc.storage.list(`uploads/${res.body.uploadID}`)).toEqual([]);
    // Asked again, it answers the same.
    expect((await complete(res.body.uploadID, user)).status).toBe(413);
  });

  it('lets only one of two uploads that each fit, but not together, take the last room', async () => {
    const user = uniqueName('owner');
    await uploadVideo(user);
    const a = await request(user);
    const b = await request(user);
    await svc.put(a.body.urls[0], media.mp4, 'video/mp4');
    await svc.put(b.body.urls[0], media.mp4, 'video/mp4');
    const answers = await Promise.all([complete(a.body.uploadID, user), complete(b.body.uploadID, user)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 413]);
  });
});

describe('deleted uploads', () => {
  it('stop counting: once results has removed their objects, and when upload.deleted.v1 says so', async () => {
    const user = uniqueName('owner');
    const first = await uploadVideo(user);
    const second = await uploadVideo(user);
    expect((await request(user, { size: media.mp4.length })).status).toBe(413);

    // results deletes an upload's whole folder; the next refusal looks first and finds it gone.
    await svc.storage.deletePrefix(`uploads/${first}`);
    expect((await request(user, { size: media.mp4.length })).status).toBe(200);
    expect((await svc.db('uploads').where({ id: first }).first()).deleted_at).toBeInstanceOf(Date);

    // results publishes upload.deleted.v1 when it deletes one: from then on it does not count.
    await svc.service.deliver('upload.deleted.v1', { uploadId: second, userId: user });
    expect((await svc.db('uploads').where({ id: second }).first()).deleted_at).toBeInstanceOf(Date);
    expect(await forgetDeletedUpload(svc.ctx, { uploadId: second, userId: user })).toBe(false);
    expect((await request(user, { size: media.mp4.length })).status).toBe(200);
  });

  it('keep no names once upload.deleted.v1 says so: neither in their rows nor in the events sent about them', async () => {
    const user = uniqueName('owner');
    const name = `Holiday ${uniqueName('trip')}`;
    const fileName = `${uniqueName('beach')}.mp4`;
    const res = await request(user, { size: media.mp4.length, uploadName: name, fileName });
    await svc.put(res.body.urls[0], media.mp4, 'video/mp4');
    expect((await complete(res.body.uploadID, user)).status).toBe(200);
    const sent = () => svc.db('outbox').whereNotNull('published_at').whereRaw(`envelope->'data'->>'uploadId' = ?`, [res.body.uploadID]);
    await expect.poll(async () => (await sent()).length, { timeout: 10_000 }).toBe(1);

    await svc.service.deliver('upload.deleted.v1', { uploadId: res.body.uploadID, userId: user });

    expect(await svc.db('uploads').where({ id: res.body.uploadID }).first()).toMatchObject({ name: '', file_names: null, failure_reason: null, deleted_at: expect.any(Date) });
    expect(await sent()).toEqual([]);
    const outbox = JSON.stringify(await svc.db('outbox').select('envelope'));
    expect(outbox).not.toContain(name);
    expect(outbox).not.toContain(fileName);
  });
});
