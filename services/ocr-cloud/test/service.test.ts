import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '@frametext/service-kit';
import { eventually, testLogger } from '@frametext/service-kit/testing';
import type { Config } from '../src/config.js';
import { ocrCloudService } from '../src/service.js';
import type { VisionBatcher } from '../src/domain/vision-batcher.js';
import { fixedTokenAccess, googleError } from './support/fake-google.js';
import { cloudRequest, cloudWorld, jpegFrame, newUploadId, type CloudWorld } from './support/world.js';

// The worker in-process on the real Postgres and RabbitMQ, calling a local fake of Google's REST APIs with the
// real @google-cloud/vision client and a fixed-token auth client.

let world: CloudWorld;
let running: RunningService<Config>;
let batcher: VisionBatcher;
let seed = 0;

beforeAll(async () => {
  // A wide batching window so that frames published together surely share a request.
  world = await cloudWorld({ VISION_BATCH_WINDOW_MS: '300' });
  running = await startService(
    ocrCloudService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr-cloud'), google: fixedTokenAccess('token-123'), onBatcher: (b) => (batcher = b) }),
  );
});
afterAll(async () => {
  await running?.stop();
  await world?.cleanup();
});

/** Stores a fresh frame whose Vision answer is `answer`, and returns its object key. */
async function frame(uploadId: string, index: number, answer?: Parameters<CloudWorld['google']['answer']>[1]): Promise<string> {
  const key = `uploads/${uploadId}/frames/${String(index * 1000).padStart(10, '0')}.jpg`;
  const image = await jpegFrame(++seed);
  await world.storage.put(key, image, { contentType: 'image/jpeg' });
  if (answer) world.google.answer(image, answer);
  return key;
}

const completedFor = (uploadId: string, frameIndex = 0) => eventually(() => world.completed.find((c) => c.uploadId === uploadId && c.frameIndex === frameIndex), 20_000);

describe('ocr-cloud reading frames with Cloud Vision', () => {
  it('publishes a frame’s lines as ocr.completed.v1, shaped like the Basic engine’s, with the frame’s size', async () => {
    const uploadId = newUploadId();
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'dashboard')));
    const done = await completedFor(uploadId);
    expect(done).toMatchObject({ engine: 'cloud', timestampMs: 0, imageWidth: 1280, imageHeight: 720, failureReason: null });
    expect(done.detections.map((d) => d.text)).toEqual(['Battery', '45%', 'Power 12.5 W', 'Elapsed 00:12:30', 'Mode ECO']);
    expect(done.detections[1]).toMatchObject({ blockType: 'LINE', confidence: 98, area: 104 * 44 });
    expect(done.words).toHaveLength(9);
    const call = world.google.visionCalls.at(-1)!;
    expect(call.authorization).toBe('Bearer token-123');
    expect(call.features).toContainEqual({ type: 11 }); // DOCUMENT_TEXT_DETECTION
  });

  it('reads frames that arrive together in one Vision request', async () => {
    const uploadId = newUploadId();
    const before = batcher.sent.length;
    const keys = await Promise.all([0, 1, 2, 3, 4].map((i) => frame(uploadId, i, i % 2 ? 'rotated' : 'dashboard')));
    await Promise.all(keys.map((key, i) => world.publishRequest(cloudRequest(uploadId, i, key, { framesTotal: 5 }))));
    const done = await eventually(() => (world.completed.filter((c) => c.uploadId === uploadId).length === 5 ? world.completed.filter((c) => c.uploadId === uploadId) : undefined), 20_000);
    expect(batcher.sent.slice(before).reduce((a, b) => a + b, 0)).toBe(5);
    expect(batcher.sent.length - before).toBeLessThan(5);
    // Each frame got its own answer back.
    expect(done.find((c) => c.frameIndex === 1)!.detections.map((d) => d.text)).toEqual(['NO ENTRY', 'Speed 88 km/h', 'SALE']);
    expect(done.find((c) => c.frameIndex === 4)!.detections[0]!.text).toBe('Battery');
  });

  it('completes a frame Vision refused, and one that is not an image, with a reason and no text; a blank frame with no text and no reason', async () => {
    const uploadId = newUploadId();
    const calls = world.google.visionCalls.length;
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'refused')));
    await world.publishRequest(cloudRequest(uploadId, 1, await frame(uploadId, 1, 'empty')));
    const notImage = `uploads/${uploadId}/frames/0000002000.jpg`;
    await world.storage.put(notImage, Buffer.from('definitely not a jpeg'), { contentType: 'image/jpeg' });
    await world.publishRequest(cloudRequest(uploadId, 2, notImage));

    expect(await completedFor(uploadId, 0)).toMatchObject({ detections: [], failureReason: 'Cloud AI could not read this frame: Bad image data.' });
    expect(await completedFor(uploadId, 1)).toMatchObject({ detections: [], failureReason: null, imageWidth: 1280 });
    expect(await completedFor(uploadId, 2)).toMatchObject({ detections: [], failureReason: 'The frame could not be read as an image.' });
    // The broken file never reached Google.
    expect(world.google.visionCalls.slice(calls).flatMap((c) => c.images).some((i) => i.toString() === 'definitely not a jpeg')).toBe(false);
  });

  it('retries when Google answers 429 and 503, and the frame still completes with its text', async () => {
    const uploadId = newUploadId();
    const calls = world.google.visionCalls.length;
    world.google.visionFailures.push(googleError(429), googleError(503));
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'dashboard')));
    const done = await completedFor(uploadId);
    expect(done.failureReason).toBeNull();
    expect(done.detections).toHaveLength(5);
    expect(world.google.visionCalls.length - calls).toBeGreaterThanOrEqual(3);
  });

  it('fails the whole upload when Google refuses the credentials, and spares Google the rest of its frames', async () => {
    const uploadId = newUploadId();
    world.google.visionFailures.push(googleError(401));
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'dashboard'), { framesTotal: 2 }));
    const failed = await eventually(() => world.failed.find((f) => f.uploadId === uploadId), 20_000);
    expect(failed).toMatchObject({ userId: 'user-1', stage: 'ocr' });
    expect(failed.reason).toMatch(/could not sign in to Google Cloud.*credits were not charged/);

    const calls = world.google.visionCalls.length;
    await world.publishRequest(cloudRequest(uploadId, 1, await frame(uploadId, 1, 'dashboard'), { framesTotal: 2 }));
    await eventually(() => world.failed.filter((f) => f.uploadId === uploadId).length === 2, 20_000);
    expect(world.google.visionCalls.length).toBe(calls);
    expect(world.completed.some((c) => c.uploadId === uploadId)).toBe(false);
  });

  it('fails the upload when the quota stays exhausted through every retry', async () => {
    const uploadId = newUploadId();
    // 3 deliveries (BUS_MAX_ATTEMPTS in tests), each trying 1 + CLOUD_RETRIES (3) times.
    for (let i = 0; i < 12; i++) world.google.visionFailures.push(googleError(429));
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'dashboard')));
    const failed = await eventually(() => world.failed.find((f) => f.uploadId === uploadId), 25_000);
    expect(failed.reason).toMatch(/used up this server’s Google Cloud quota/);
    expect(world.google.visionFailures).toHaveLength(0);
  });
});

describe('caption translation', () => {
  it('translates each caption from the original language, keeping the text as read in originalText', async () => {
    const uploadId = newUploadId();
    world.google.translate('en', { 'Je ne pense pas que nous devrions y aller ce soir.': 'I don’t think we should go there tonight.', 'INFO RÉGIONALE': 'REGIONAL NEWS' });
    const calls = world.google.translateCalls.length;
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'captions-fr'), { mediaContent: 'captions', originalLanguage: 'fr', targetLanguage: 'en' }));
    const done = await completedFor(uploadId);
    expect(done.detections.map((d) => [d.text, d.originalText])).toEqual([
      ['REGIONAL NEWS', 'INFO RÉGIONALE'],
      ['I don’t think we should go there tonight.', 'Je ne pense pas que nous devrions y aller ce soir.'],
    ]);
    expect(world.google.translateCalls.slice(calls)).toEqual([
      { authorization: 'Bearer token-123', q: ['INFO RÉGIONALE', 'Je ne pense pas que nous devrions y aller ce soir.'], target: 'en', source: 'fr' },
    ]);
  });

  it('detects the language with Auto, and leaves text already in the target language alone', async () => {
    const auto = newUploadId();
    world.google.detectedLanguage = 'fr';
    await world.publishRequest(cloudRequest(auto, 0, await frame(auto, 0, 'captions-fr'), { mediaContent: 'captions', originalLanguage: null, targetLanguage: 'de' }));
    expect((await completedFor(auto)).detections[1]).toMatchObject({ text: '[de] Je ne pense pas que nous devrions y aller ce soir.', originalText: 'Je ne pense pas que nous devrions y aller ce soir.' });
    expect(world.google.translateCalls.at(-1)!.source).toBeUndefined();

    const already = newUploadId();
    world.google.detectedLanguage = 'de';
    await world.publishRequest(cloudRequest(already, 0, await frame(already, 0, 'captions-fr'), { mediaContent: 'captions', originalLanguage: null, targetLanguage: 'de' }));
    expect((await completedFor(already)).detections[1]).toEqual(expect.not.objectContaining({ originalText: expect.anything() }));
  });

  it('does not translate with Same as the target, nor outside captions mode', async () => {
    const calls = world.google.translateCalls.length;
    const same = newUploadId();
    await world.publishRequest(cloudRequest(same, 0, await frame(same, 0, 'captions-fr'), { mediaContent: 'captions', originalLanguage: 'fr', targetLanguage: null }));
    const numerical = newUploadId();
    await world.publishRequest(cloudRequest(numerical, 0, await frame(numerical, 0, 'captions-fr'), { mediaContent: 'numerical', originalLanguage: 'fr', targetLanguage: 'en' }));
    expect((await completedFor(same)).detections.map((d) => d.text)).toEqual(['INFO RÉGION-', 'ALE', 'Je ne pense pas que nous', 'devrions y aller ce soir.']);
    expect((await completedFor(numerical)).detections.every((d) => d.originalText === undefined)).toBe(true);
    expect(world.google.translateCalls.length).toBe(calls);
  });

  it('fails the upload with a reason when the Translation API is not enabled', async () => {
    const uploadId = newUploadId();
    world.google.translateFailures.push(googleError(403, 'Cloud Translation API has not been used in project 123456789 before or it is disabled.'));
    await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'captions-fr'), { mediaContent: 'captions', originalLanguage: 'fr', targetLanguage: 'en' }));
    const failed = await eventually(() => world.failed.find((f) => f.uploadId === uploadId), 20_000);
    expect(failed.reason).toMatch(/Cloud Translation API is not enabled/);
  });
});

describe('without Google credentials', () => {
  it('does not send the frames of a deleted upload to Google, and publishes nothing of them', async () => {
    const handled = async (ids: string[]) => Number((await running.deps.db('inbox').whereIn('message_id', ids).count({ n: '*' }).first())?.n) === ids.length;
    const deleted = newUploadId();
    const deletion = await world.publishDeleted(deleted);
    await eventually(() => handled([deletion]));
    const calls = world.google.visionCalls.length;
    const skipped = [await world.publishRequest(cloudRequest(deleted, 0, await frame(deleted, 0, 'dashboard'))), await world.publishRequest(cloudRequest(deleted, 1, await frame(deleted, 1, 'dashboard')))];
    await eventually(() => handled(skipped), 20_000);
    expect(world.google.visionCalls.length).toBe(calls);
    expect(world.completed.filter((c) => c.uploadId === deleted)).toEqual([]);
    expect(await running.deps.db('cancelled_uploads').where({ upload_id: deleted }).first()).toBeDefined();
  });

  it('says plainly that Cloud AI is off, takes no frames (they wait), and a worker with credentials reads them later', async () => {
    await running.stop();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }));
    const off = await startService(ocrCloudService(world.config, { name: world.name, dbSchema: world.schema, logger, google: { on: false, reason: 'no Google credentials were found' } }));
    try {
      expect(lines.join('')).toMatch(/Cloud AI is OFF.*no Google credentials were found/);
      expect(await world.consumers()).toBe(0);
      const uploadId = newUploadId();
      await world.publishRequest(cloudRequest(uploadId, 0, await frame(uploadId, 0, 'dashboard')));
      await eventually(async () => (await world.waiting()) === 1);
      expect(world.completed.some((c) => c.uploadId === uploadId)).toBe(false);

      running = await startService(ocrCloudService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr-cloud'), google: fixedTokenAccess() }));
      expect((await completedFor(uploadId)).detections).toHaveLength(5);
    } finally {
      await off.stop();
    }
  });
});
