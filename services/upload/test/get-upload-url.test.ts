import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUploadUrlResponseSchema } from '@frametext/contracts';
import { connect } from 'amqplib';
import { BUILT_IN_SECRETS, WorkloadCredentials } from '@frametext/service-kit';
import { TEST_RABBITMQ_URL, eventually, uniqueName } from '@frametext/service-kit/testing';
import { makeMedia, photosRequest, startUpload, videoRequest, type Media, type TestUpload } from './helpers.js';

let svc: TestUpload;
let media: Media;
/** The Cloud AI workers' queue, this file's own: Cloud AI is offered while something consumes it. */
const cloudQueue = uniqueName('cloud_worker');

beforeAll(async () => {
  [svc, media] = await Promise.all([startUpload({ OCR_CLOUD_QUEUE: cloudQueue }), makeMedia()]);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await media?.cleanup();
});

const png = (name: string) => ({ name, type: 'image/png' });
const jpeg = (name: string) => ({ name, type: 'image/jpeg' });

describe('POST /api/getUploadURL refuses what the spec refuses, in its words', () => {
  const refusals: [rule: string, body: Record<string, unknown>, code: string, message: string | RegExp][] = [
    ['a file that is not .mov or .mp4 as the video', videoRequest({ fileName: 'clip.avi' }), 'upload/one-video-at-a-time', 'Please upload one .mov or .mp4 at a time.'],
    ['two videos at once', photosRequest([{ name: 'a.MP4', type: 'video/mp4' }, { name: 'b.mov', type: 'video/quicktime' }]), 'upload/one-video-at-a-time', 'Please upload one .mov or .mp4 at a time.'],
    ['a video among photos', photosRequest([png('a.png'), { name: 'b.MOV', type: 'video/quicktime' }]), 'upload/one-video-at-a-time', 'Please upload one .mov or .mp4 at a time.'],
    ['photos of two types', photosRequest([png('a.png'), jpeg('b.jpg')]), 'upload/mixed-file-types', 'Please ensure multiple uploads are the same file type.'],
    ['a photo that is not png or jpeg', photosRequest([png('a.png'), png('b.gif')]), 'upload/photos-only', 'Ensure multiple uploads are all photos and either .png or .jpeg.'],
    ['a photo type that is not png or jpeg', photosRequest([{ name: 'a.webp', type: 'image/webp' }]), 'upload/photos-only', 'Ensure multiple uploads are all photos and either .png or .jpeg.'],
    ['no name', videoRequest({ uploadName: '  ' }), 'upload/name-required', 'Please name your upload before uploading.'],
    ['a missing name', videoRequest({ uploadName: undefined }), 'upload/name-required', 'Please name your upload before uploading.'],
    ['equal caption languages', videoRequest({ mediaContent: 'captions', originalLanguage: 'fr', targetLanguage: 'fr' }), 'upload/same-languages', 'Ensure original and target languages are not equal.'],
    ['361 frames of a video', videoRequest({ duration: 361, targetFrameRate: 1 }), 'upload/too-many-frames', /^Whoa that's a lot of frames: 361 .*limit is 360/],
    ['361 browser-cut frames', videoRequest({ mimeType: 'image/jpeg', timestamps: Array.from({ length: 361 }, (_, i) => String(i * 1000).padStart(10, '0')) }), 'upload/too-many-frames', /^Whoa that's a lot of frames/],
    ['an interval that is not a choice', videoRequest({ targetFrameRate: 1 / 7 }), 'request/invalid-body', /^targetFrameRate: targetFrameRate must be 1 \/ one of the interval choices/],
  ];

  for (const [rule, body, code, message] of refusals) {
    it(`refuses ${rule}`, async () => {
      const calls = svc.billing.calls.length;
      const rows = (await svc.db('uploads').count({ n: '*' }))[0]!.n;
      const res = await svc.post('/api/getUploadURL', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(code);
      if (typeof message === 'string') expect(res.body.error.message).toBe(message);
      else expect(res.body.error.message).toMatch(message);
      expect(svc.billing.calls.length).toBe(calls); // nothing reserved for a refused request
      expect((await svc.db('uploads').count({ n: '*' }))[0]!.n).toBe(rows); // and nothing stored
    });
  }

  it('accepts 360 frames, and extensions in any case', async () => {
    expect((await svc.post('/api/getUploadURL', videoRequest({ duration: 360, targetFrameRate: 1, fileName: 'BIG.MP4' }))).status).toBe(200);
    expect((await svc.post('/api/getUploadURL', photosRequest([jpeg('a.JPG'), jpeg('b.jpeg'), jpeg('c.Jpg')]))).status).toBe(200);
    expect((await svc.post('/api/getUploadURL', photosRequest([png('a.Png'), png('b.PNG')]))).status).toBe(200);
    expect((await svc.post('/api/getUploadURL', videoRequest({ mimeType: 'video/quicktime', fileName: 'phone.MOV' }))).status).toBe(200);
  });

  it('refuses the Cloud AI engine while no Cloud AI worker runs, naming Basic; accepts it while one does', async () => {
    const calls = svc.billing.calls.length;
    const res = await svc.post('/api/getUploadURL', videoRequest({ ocrType: 'cloud' }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upload/engine-unavailable');
    expect(res.body.error.message).toBe('Cloud AI is not configured on this server; use Basic.');
    // The spec's default engine is cloud: a request that names none is refused the same way.
    expect((await svc.post('/api/getUploadURL', videoRequest({ ocrType: undefined }))).body.error.code).toBe('upload/engine-unavailable');
    expect(svc.billing.calls.length).toBe(calls);

    // A worker with credentials starts consuming: Cloud AI uploads are taken (1 credit a frame).
    const broker = await connect(TEST_RABBITMQ_URL);
    try {
      const worker = await broker.createChannel();
      await worker.assertQueue(cloudQueue, { durable: true });
      await worker.consume(cloudQueue, () => undefined);
      const accepted = await eventually(async () => {
        const answer = await svc.post('/api/getUploadURL', videoRequest({ ocrType: 'cloud' }));
        return answer.status === 200 ? answer : undefined;
      });
      expect(svc.billing.calls.at(-1)).toMatchObject({ engine: 'cloud' });
      expect(accepted.body.creditCost).toBe(accepted.body.maxFrames);
      await worker.deleteQueue(cloudQueue);
    } finally {
      await broker.close();
    }
  });

  it('answers 4xx JSON for malformed JSON, a body that is not an object, an oversized body and a missing user', async () => {
    const malformed = await svc.post('/api/getUploadURL', undefined, { raw: '{"uploadName": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('request/malformed-json');
    const array = await svc.post('/api/getUploadURL', [videoRequest()]);
    expect(array.status).toBe(400);
    expect(array.body.error.code).toBe('request/invalid-body');
    const huge = await svc.post('/api/getUploadURL', videoRequest({ uploadName: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('request/too-large');
    const anonymous = await svc.post('/api/getUploadURL', videoRequest(), { user: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('auth/missing-token');
  });
});

describe('POST /api/getUploadURL reserves credits and hands out presigned PUT URLs', () => {
  it('answers one URL for a video, stores the upload as uploading, and the URL takes the bytes', async () => {
    const user = uniqueName('video_user');
    const res = await svc.post('/api/getUploadURL', videoRequest({ duration: 61 }), { user });
    expect(res.status).toBe(200);
    const body = getUploadUrlResponseSchema.parse(res.body);
    expect(body.urls).toHaveLength(1);
    expect(body).toMatchObject({ framesRequested: 5, maxFrames: 5, creditCost: 1 });
    expect(svc.billing.calls.at(-1)).toEqual({ uploadId: body.uploadID, userId: user, engine: 'server', frames: 5 });
    // Billing is asked on the user's behalf with their own token, and by this service with its workload token.
    const sent = svc.billing.credentials.at(-1)!;
    const claims = JSON.parse(Buffer.from(sent.authorization!.split('.')[1]!, 'base64url').toString()) as { sub: string };
    expect(claims.sub).toBe(user);
    expect(new WorkloadCredentials(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET, 'billing').verify(sent.workload, 'billing', ['upload'])).toBe('upload');

    const row = await svc.db('uploads').where({ id: body.uploadID }).first();
    expect(row).toMatchObject({
      user_id: user,
      kind: 'video',
      status: 'uploading',
      engine: 'server',
      interval_seconds: 15,
      frames_requested: 5,
      frames_allowed: 5,
      credit_cost: 1,
      object_keys: [`uploads/${body.uploadID}/source/video.mp4`],
      file_names: ['charger.mp4'],
      duration_seconds: 61,
    });

    const put = await svc.put(body.urls[0]!, media.mp4, 'video/mp4');
    expect(put.status).toBeLessThan(300);
    expect((await svc.storage.getBuffer(row.object_keys[0])).equals(media.mp4)).toBe(true);
    // The URL is bound to the declared type: a PUT with another Content-Type is refused.
    expect((await svc.put(body.urls[0]!, media.mp4, 'text/plain')).status).toBe(403);
  });

  it('answers one URL per photo in the request order, and one per browser-cut frame named by its timestamp', async () => {
    const photos = getUploadUrlResponseSchema.parse((await svc.post('/api/getUploadURL', photosRequest([png('z.png'), png('a.png'), png('m.PNG')]))).body);
    expect(photos.urls).toHaveLength(3);
    const photoRow = await svc.db('uploads').where({ id: photos.uploadID }).first();
    expect(photoRow.object_keys).toEqual([0, 1, 2].map((i) => `uploads/${photos.uploadID}/photos/${i}.png`));
    expect(photoRow.file_names).toEqual(['z.png', 'a.png', 'm.PNG']);
    expect(photoRow.timestamps).toEqual([1_700_000_000_000, 1_700_000_001_000, 1_700_000_002_000]);
    expect(photos.urls.map((u) => new URL(u).pathname)).toEqual(photoRow.object_keys.map((k: string) => `/files/${k}`));

    const frames = await svc.post('/api/getUploadURL', videoRequest({ mimeType: 'image/jpeg', timestamps: ['0000000000', '0000015000', '0000030000'] }));
    expect(frames.status).toBe(200);
    const frameRow = await svc.db('uploads').where({ id: frames.body.uploadID }).first();
    expect(frameRow.kind).toBe('frames');
    expect(frameRow.object_keys).toEqual(['0000000000', '0000015000', '0000030000'].map((t) => `uploads/${frames.body.uploadID}/incoming/${t}.jpg`));
    expect((await svc.put(frames.body.urls[1], media.jpeg, 'image/jpeg')).status).toBeLessThan(300);
    expect(await svc.storage.head(frameRow.object_keys[1])).not.toBeNull();
  });

  it('passes billing\'s 402 through when the balance is empty, and stores nothing', async () => {
    const user = uniqueName('broke_user');
    svc.billing.balances.set(user, 0);
    const res = await svc.post('/api/getUploadURL', videoRequest(), { user });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'billing/insufficient-credits', message: 'Not enough credits, purchase some more before uploading.', details: { credits: 0 } });
    expect(await svc.db('uploads').where({ user_id: user })).toEqual([]);
  });

  it('quotes only the frames the credits pay for', async () => {
    const user = uniqueName('poor_user');
    svc.billing.balances.set(user, 2); // 2 credits pay for 20 frames on Basic
    const res = await svc.post('/api/getUploadURL', videoRequest({ duration: 30, targetFrameRate: 1 }), { user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ framesRequested: 30, maxFrames: 20, creditCost: 2 });
    expect((await svc.db('uploads').where({ id: res.body.uploadID }).first()).frames_allowed).toBe(20);
  });

  it('answers 503 when billing cannot be reached or answers outside its contract', async () => {
    svc.billing.failWith = 500;
    try {
      const res = await svc.post('/api/getUploadURL', videoRequest());
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('upload/billing-unavailable');
    } finally {
      svc.billing.failWith = undefined;
    }
    const offline = await startUpload({ BILLING_URL: 'http://127.0.0.1:9' });
    try {
      const res = await offline.post('/api/getUploadURL', videoRequest());
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('upload/billing-unavailable');
    } finally {
      await offline.stop();
    }
  }, 30_000);
});
