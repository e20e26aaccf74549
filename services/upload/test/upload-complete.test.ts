import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ChannelModel } from 'amqplib';
import { eventSchemas } from '@frametext/contracts';
import { TEST_RABBITMQ_URL, eventually, uniqueName } from '@frametext/service-kit/testing';
import type { ObjectStorage } from '@frametext/service-kit';
import { completeUpload } from '../src/domain/complete-upload.js';
import { sweepOriginals } from '../src/domain/sweep-originals.js';
import { makeMedia, photosRequest, startUpload, videoRequest, type Media, type TestUpload } from './helpers.js';

let svc: TestUpload;
let media: Media;

beforeAll(async () => {
  [svc, media] = await Promise.all([startUpload(), makeMedia()]);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await media?.cleanup();
});

async function newUpload(body: Record<string, unknown>, user: string): Promise<{ uploadID: string; urls: string[] }> {
  const res = await svc.post('/api/getUploadURL', body, { user });
  expect(res.status).toBe(200);
  return res.body;
}

const complete = (uploadID: string, user: string) => svc.post('/api/uploadComplete', { uploadID }, { user });
const eventsFor = async (uploadId: string) => (await svc.outbox()).filter((e) => e.data.uploadId === uploadId);
/** A sealed key: the original's path under `uploads/<id>/sealed/<attempt>/`. */
const sealed = (uploadID: string, rest: string) => new RegExp(`^uploads/${uploadID}/sealed/[0-9a-f]{12}/${rest.replace(/\./g, '\\.')}$`);
const keysOf = async (uploadID: string) => ((await eventsFor(uploadID))[0]!.data.objectKeys as string[]);

describe('POST /api/uploadComplete', () => {
  it('marks a real MP4 uploaded and publishes upload.completed.v1 with every field, once', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest({ duration: 2, targetFrameRate: 1, mediaContent: 'presentation' }), user);
    expect((await svc.put(urls[0]!, media.mp4, 'video/mp4')).status).toBeLessThan(300);

    const first = await complete(uploadID, user);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { uploadID, status: 'uploaded' } });
    const row = await svc.db('uploads').where({ id: uploadID }).first();
    expect(row.status).toBe('uploaded');
    expect(row.completed_at).toBeInstanceOf(Date);

    const events = await eventsFor(uploadID);
    expect(events.map((e) => e.type)).toEqual(['upload.completed.v1']);
    expect(eventSchemas['upload.completed.v1'].parse(events[0]!.data)).toEqual({
      uploadId: uploadID,
      userId: user,
      uploadName: 'Charger session',
      kind: 'video',
      objectKeys: [expect.stringMatching(sealed(uploadID, 'source/video.mp4'))],
      mimeType: 'video/mp4',
      fileNames: ['charger.mp4'],
      timestamps: null,
      engine: 'server',
      mediaContent: 'presentation',
      intervalSeconds: 1,
      slideDetection: true,
      sortPreference: null,
      // Slide detection (on in presentation mode) looks every 2 s, whatever the interval: one sample in 2 s.
      maxFrames: 1,
      creditCost: 1,
      originalLanguage: null,
      targetLanguage: null,
      durationSeconds: 2,
      createdAt: row.created_at.toISOString(),
    });

    // A second call answers the same and publishes nothing more.
    const second = await complete(uploadID, user);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await eventsFor(uploadID)).toHaveLength(1);
  });

  it('accepts a QuickTime .mov', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest({ mimeType: 'video/quicktime', fileName: 'phone.MOV' }), user);
    await svc.put(urls[0]!, media.mov, 'video/quicktime');
    expect((await complete(uploadID, user)).status).toBe(200);
    expect(await keysOf(uploadID)).toEqual([expect.stringMatching(sealed(uploadID, 'source/video.mov'))]);
  });

  it('says which file is missing and leaves the upload open to finish', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(photosRequest([{ name: 'first.png', type: 'image/png' }, { name: 'second.png', type: 'image/png' }]), user);
    await svc.put(urls[0]!, media.png, 'image/png');
    const res = await complete(uploadID, user);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upload/missing-object');
    expect(res.body.error.message).toMatch(/^second\.png has not been uploaded/);
    expect((await svc.db('uploads').where({ id: uploadID }).first()).status).toBe('uploading');
    expect(await eventsFor(uploadID)).toEqual([]);

    await svc.put(urls[1]!, media.png, 'image/png');
    expect((await complete(uploadID, user)).status).toBe(200);
    const [event] = await eventsFor(uploadID);
    expect(event!.data).toMatchObject({
      kind: 'photos',
      objectKeys: [expect.stringMatching(sealed(uploadID, 'photos/0.png')), expect.stringMatching(sealed(uploadID, 'photos/1.png'))],
      fileNames: ['first.png', 'second.png'],
      timestamps: [1_700_000_000_000, 1_700_000_001_000],
      sortPreference: 'name',
      intervalSeconds: null,
      durationSeconds: null,
      maxFrames: 2,
    });
  });

  it("takes the spec's photo request with capture times and no file list, and completes it", async () => {
    const user = uniqueName('owner');
    const { files: _files, ...spec } = photosRequest([], { mimeType: 'image/png', timestamps: [1_700_000_005_000, 1_700_000_001_000], sortPreference: 'timestamp' });
    const { uploadID, urls } = await newUpload(spec, user);
    expect(urls).toHaveLength(2);
    for (const url of urls) await svc.put(url, media.png, 'image/png');
    expect((await complete(uploadID, user)).status).toBe(200);
    const [event] = await eventsFor(uploadID);
    expect(event!.data).toMatchObject({ kind: 'photos', fileNames: ['photo-001.png', 'photo-002.png'], timestamps: [1_700_000_005_000, 1_700_000_001_000], sortPreference: 'timestamp', maxFrames: 2 });
  });

  it('fails a text file renamed .mp4 with a clear reason, publishes upload.failed.v1, and answers the same again', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest({ fileName: 'notes.mp4' }), user);
    await svc.put(urls[0]!, Buffer.from('These are my meeting notes, not a video.\n'), 'video/mp4');

    const res = await complete(uploadID, user);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'upload/invalid-media', message: 'notes.mp4 is not a video: its content is not MP4 or MOV.' });
    const row = await svc.db('uploads').where({ id: uploadID }).first();
    expect(row).toMatchObject({ status: 'failed', failure_reason: 'notes.mp4 is not a video: its content is not MP4 or MOV.' });
    const events = await eventsFor(uploadID);
    expect(events).toEqual([{ type: 'upload.failed.v1', data: { uploadId: uploadID, userId: user, reason: 'notes.mp4 is not a video: its content is not MP4 or MOV.', stage: 'upload' } }]);

    const again = await complete(uploadID, user);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(res.body.error.message);
    expect(await eventsFor(uploadID)).toHaveLength(1);
  });

  it('fails a photo whose bytes are not PNG or JPEG, and browser-cut frames that are not JPEG', async () => {
    const user = uniqueName('owner');
    const photos = await newUpload(photosRequest([{ name: 'scan.PNG', type: 'image/png' }]), user);
    await svc.put(photos.urls[0]!, media.mp4, 'image/png');
    const photoRes = await complete(photos.uploadID, user);
    expect(photoRes.status).toBe(400);
    expect(photoRes.body.error.message).toBe('scan.PNG is not a photo: its content is not PNG or JPEG.');

    const frames = await newUpload(videoRequest({ mimeType: 'image/jpeg', timestamps: ['0000000000', '0000001000'] }), user);
    await svc.put(frames.urls[0]!, media.jpeg, 'image/jpeg');
    await svc.put(frames.urls[1]!, media.png, 'image/jpeg');
    const frameRes = await complete(frames.uploadID, user);
    expect(frameRes.status).toBe(400);
    expect(frameRes.body.error.message).toBe('Frame 0000001000.jpg is not a JPEG image.');
  });

  it('completes browser-cut frames with their timestamps in ms', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest({ mimeType: 'image/jpeg', timestamps: ['0000015000', '0000000000'], duration: 20 }), user);
    for (const url of urls) await svc.put(url, media.jpeg, 'image/jpeg');
    expect((await complete(uploadID, user)).status).toBe(200);
    expect((await eventsFor(uploadID))[0]!.data).toMatchObject({
      kind: 'frames',
      mimeType: 'image/jpeg',
      timestamps: [15000, 0],
      objectKeys: [expect.stringMatching(sealed(uploadID, 'incoming/0000015000.jpg')), expect.stringMatching(sealed(uploadID, 'incoming/0000000000.jpg'))],
      fileNames: null,
      durationSeconds: 20,
      intervalSeconds: 15,
    });
  });

  it('answers 404 for another user\'s upload and for an unknown id, and 400 without an id', async () => {
    const owner = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest(), owner);
    await svc.put(urls[0]!, media.mp4, 'video/mp4');
    const other = await complete(uploadID, uniqueName('intruder'));
    expect(other.status).toBe(404);
    const unknown = await complete('00000000-0000-4000-8000-000000000000', owner);
    expect(unknown.status).toBe(404);
    expect(other.body.error).toEqual({ ...unknown.body.error, correlationId: other.body.error.correlationId });
    expect((await svc.db('uploads').where({ id: uploadID }).first()).status).toBe('uploading');
    expect((await svc.post('/api/uploadComplete', {}, { user: owner })).status).toBe(400);
    expect((await svc.post('/api/uploadComplete', undefined, { user: owner, raw: 'uploadID=1' })).status).toBe(400);
  });

  it('sends upload.completed.v1 to the exchange through the outbox relay', async () => {
    let conn: ChannelModel | undefined;
    try {
      conn = await connect(TEST_RABBITMQ_URL);
      const ch = await conn.createChannel();
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
      await ch.bindQueue(queue, svc.config.BUS_EXCHANGE, 'upload.#');
      const user = uniqueName('owner');
      const { uploadID, urls } = await newUpload(videoRequest(), user);
      await svc.put(urls[0]!, media.mp4, 'video/mp4');
      expect((await complete(uploadID, user)).status).toBe(200);
      const message = await eventually(async () => {
        for (;;) {
          const m = await ch.get(queue, { noAck: true });
          if (!m) return undefined;
          const envelope = JSON.parse(m.content.toString());
          if (envelope.data.uploadId === uploadID) return { routingKey: m.fields.routingKey, envelope };
        }
      }, 10_000);
      expect(message.routingKey).toBe('upload.completed.v1');
      expect(message.envelope.data.userId).toBe(user);
    } finally {
      await conn?.close();
    }
  });
});

describe('GET /internal/settled-uploads/:id (results asks, before its event is there)', () => {
  const settled = (uploadID: string, opts: { user?: string; workload?: string }) =>
    svc.service.get(`/internal/settled-uploads/${uploadID}`, { workload: 'results', ...opts });

  it('answers the owner\'s upload as uploadComplete settled it, uploaded or failed; 404 while it is open and to anyone else', async () => {
    const user = uniqueName('owner');
    const done = await newUpload(photosRequest([{ name: 'meter.png', type: 'image/png' }]), user);
    await svc.put(done.urls[0]!, media.png, 'image/png');
    expect((await settled(done.uploadID, { user })).status).toBe(404);
    expect((await complete(done.uploadID, user)).status).toBe(200);
    const answer = await settled(done.uploadID, { user });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ uploadID: done.uploadID, status: 'uploaded', engine: 'server', completedAt: expect.any(String), failureReason: null });

    const refused = await newUpload(photosRequest([{ name: 'notes.png', type: 'image/png' }]), user);
    await svc.put(refused.urls[0]!, Buffer.from('not a picture'), 'image/png');
    expect((await complete(refused.uploadID, user)).status).toBe(400);
    expect((await settled(refused.uploadID, { user })).body).toMatchObject({ status: 'failed', completedAt: null, failureReason: expect.stringMatching(/notes\.png is not a photo/) });

    const stranger = await settled(done.uploadID, { user: uniqueName('stranger') });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, 'upload/not-settled']);
  });

  it('takes results\' workload token with the user\'s own token, and nothing less', async () => {
    const user = uniqueName('owner');
    const { uploadID } = await newUpload(photosRequest([{ name: 'meter.png', type: 'image/png' }]), user);
    expect((await settled(uploadID, { user, workload: undefined })).status).toBe(401);
    expect((await settled(uploadID, { user, workload: 'billing' })).status).toBe(401);
    expect((await settled(uploadID, {})).status).toBe(401);
  });
});

describe('sealed objects', () => {
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
  const afterExpiry = () => later(svc.config.UPLOAD_URL_EXPIRY_SECONDS + svc.config.UNSEALED_SWEEP_GRACE_SECONDS + 60);

  it('hands the pipeline a sealed copy: bytes PUT to the old URL afterwards are never read, and do not stay stored', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest(), user);
    await svc.put(urls[0]!, media.mp4, 'video/mp4');
    expect((await complete(uploadID, user)).status).toBe(200);

    const [sealedKey] = await keysOf(uploadID);
    const original = `uploads/${uploadID}/source/video.mp4`;
    expect((await svc.storage.getBuffer(sealedKey!)).equals(media.mp4)).toBe(true);
    expect(await svc.storage.head(original)).toBeNull();
    expect((await svc.db('uploads').where({ id: uploadID }).first()).sealed_keys).toEqual([sealedKey]);

    // The URL still works until it expires: a swap lands at the original key, which nothing reads.
    expect((await svc.put(urls[0]!, Buffer.from('not the video that was checked'), 'video/mp4')).status).toBeLessThan(300);
    expect((await svc.storage.getBuffer(sealedKey!)).equals(media.mp4)).toBe(true);
    expect((await complete(uploadID, user)).status).toBe(200);
    expect(await keysOf(uploadID)).toEqual([sealedKey]);

    // While URLs are valid the sweep leaves the upload alone; once they have expired it removes the swap.
    await sweepOriginals(svc.ctx);
    expect(await svc.storage.head(original)).not.toBeNull();
    await sweepOriginals(svc.ctx, afterExpiry());
    expect(await svc.storage.head(original)).toBeNull();
    expect(await svc.storage.list(`uploads/${uploadID}`)).toEqual([sealedKey]);
    expect((await svc.db('uploads').where({ id: uploadID }).first()).originals_swept_at).toBeInstanceOf(Date);
  });

  it('checks the sealed copy, not whatever the URL holds by the time the check runs', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest(), user);
    await svc.put(urls[0]!, media.mp4, 'video/mp4');
    const real = svc.ctx.storage;
    // A PUT to the old URL lands right after the copy was made, before the check reads anything.
    const racing: ObjectStorage = Object.assign(Object.create(real) as ObjectStorage, {
      copy: async (from: string, to: string) => {
        await real.copy(from, to);
        await real.put(from, Buffer.from('swapped in after sealing'), { contentType: 'video/mp4' });
      },
    });
    expect(await completeUpload({ ...svc.ctx, storage: racing }, user, { uploadID })).toEqual({ data: { uploadID, status: 'uploaded' } });
    const [sealedKey] = await keysOf(uploadID);
    expect((await real.getBuffer(sealedKey!)).equals(media.mp4)).toBe(true);
  });

  it('fails an upload for good and deletes its objects, sealed or not; a later PUT cannot revive it', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(videoRequest({ fileName: 'swap.mp4' }), user);
    await svc.put(urls[0]!, Buffer.from('text first, then a real video'), 'video/mp4');
    const res = await complete(uploadID, user);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upload/invalid-media');
    // Failed for good: its objects, sealed or not, are gone, and a later PUT cannot revive it.
    expect(await svc.storage.list(`uploads/${uploadID}`)).toEqual([]);
    await svc.put(urls[0]!, media.mp4, 'video/mp4');
    expect((await complete(uploadID, user)).status).toBe(400);
    expect((await eventsFor(uploadID)).map((e) => e.type)).toEqual(['upload.failed.v1']);
    await sweepOriginals(svc.ctx, afterExpiry());
    expect(await svc.storage.list(`uploads/${uploadID}`)).toEqual([]);
  });

  it('keeps one set of sealed copies when two calls race, and publishes once', async () => {
    const user = uniqueName('owner');
    const { uploadID, urls } = await newUpload(photosRequest([{ name: 'a.png', type: 'image/png' }, { name: 'b.png', type: 'image/png' }]), user);
    for (const url of urls) await svc.put(url, media.png, 'image/png');
    const answers = await Promise.all([complete(uploadID, user), complete(uploadID, user), complete(uploadID, user)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await eventsFor(uploadID)).toHaveLength(1);
    const keys = await keysOf(uploadID);
    expect(await svc.storage.list(`uploads/${uploadID}`)).toEqual([...keys].sort());
  });

  it('leaves uploads still open alone, and removes the objects of abandoned ones once their URLs have expired', async () => {
    const user = uniqueName('owner');
    const open = await newUpload(videoRequest(), user);
    await svc.put(open.urls[0]!, media.mp4, 'video/mp4');
    await sweepOriginals(svc.ctx, afterExpiry());
    expect(await svc.storage.head(`uploads/${open.uploadID}/source/video.mp4`)).not.toBeNull();

    await svc.db('uploads').where({ id: open.uploadID }).update({ status: 'failed', failure_code: 'upload/abandoned', failure_reason: 'abandoned' });
    await sweepOriginals(svc.ctx, afterExpiry());
    expect(await svc.storage.head(`uploads/${open.uploadID}/source/video.mp4`)).toBeNull();
  });
});
