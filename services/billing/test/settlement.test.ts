import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData, ServerEngine } from '@frametext/contracts';
import { buildEnvelope } from '@frametext/service-kit';
import { releaseAbandonedReservations } from '../src/domain/settlement.js';
import { startBilling, type TestBilling } from './helpers.js';

let billing: TestBilling;

beforeAll(async () => {
  billing = await startBilling();
});

afterAll(async () => {
  await billing?.stop();
});

function completed(uploadId: string, userId: string, engine: ServerEngine, maxFrames: number, creditCost: number): EventData<'upload.completed.v1'> {
  return {
    uploadId,
    userId,
    uploadName: 'charger',
    kind: 'video',
    objectKeys: [`uploads/${uploadId}/source/video.mp4`],
    mimeType: 'video/mp4',
    fileNames: ['charger.mp4'],
    timestamps: null,
    engine,
    mediaContent: 'numerical',
    intervalSeconds: 1,
    slideDetection: false,
    sortPreference: null,
    maxFrames,
    creditCost,
    originalLanguage: null,
    targetLanguage: null,
    durationSeconds: maxFrames,
    createdAt: new Date().toISOString(),
  };
}

/** A user with 50 credits and a reservation of `frames` frames on `engine`, its upload completed. */
async function reservedUpload(engine: ServerEngine, frames: number, opts: { complete?: boolean } = {}) {
  const userId = await billing.newUser();
  const uploadId = randomUUID();
  const res = await billing.reserve({ uploadId, userId, engine, frames });
  expect(res.status).toBe(200);
  if (opts.complete !== false) await billing.deliver('upload.completed.v1', completed(uploadId, userId, engine, res.body.maxFrames, res.body.creditCost));
  return { userId, uploadId, reserved: res.body.creditCost as number };
}

async function movements(userId: string) {
  return (await billing.ledger(userId)).map((m) => `${m.kind} ${m.credits}`);
}

describe('settling reservations from pipeline events', () => {
  it('upload.completed.v1 confirms the reservation and moves nothing', async () => {
    const { userId, uploadId } = await reservedUpload('server', 100);
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'confirmed' });
    expect(await billing.balance(userId)).toBe(40);
  });

  it('upload.processed.v1 captures the processed frames (rounded up) and releases the rest: capture + release == reservation', async () => {
    const { userId, uploadId, reserved } = await reservedUpload('server', 360);
    expect(reserved).toBe(36);
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 101, engine: 'server' });

    expect(await movements(userId)).toEqual(['grant 50', 'reserve 36', 'capture 11', 'release 25']);
    const r = await billing.reservation(uploadId);
    expect(r).toMatchObject({ status: 'settled', settled_by: 'processed', credits_captured: 11, credits_released: 25 });
    expect(Number(r!.credits_captured) + Number(r!.credits_released)).toBe(reserved);
    expect(await billing.balance(userId)).toBe(39);
    expect(await billing.ledgerBalance(userId)).toBe(39);
  });

  it('never captures more than was reserved, whatever framesProcessed says', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 80); // 50 credits pay for 50 frames
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 80, engine: 'cloud' });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 50', 'capture 50']);
    expect(await billing.balance(userId)).toBe(0);
  });

  it('a processed upload with no frames releases everything', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 10);
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 0, engine: 'cloud' });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 10', 'release 10']);
    expect(await billing.balance(userId)).toBe(50);
  });

  it('upload.failed.v1 refunds the reservation in full', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 30);
    expect(await billing.balance(userId)).toBe(20);
    await billing.deliver('upload.failed.v1', { uploadId, userId, reason: 'The video could not be read: it has no video track.', stage: 'extraction' });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 30', 'release 30']);
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'settled', settled_by: 'failed', credits_captured: 0, credits_released: 30 });
    expect(await billing.balance(userId)).toBe(50);
  });

  it('a failure before upload.completed.v1 (bad objects at uploadComplete) also refunds in full', async () => {
    const { userId, uploadId } = await reservedUpload('server', 50, { complete: false });
    await billing.deliver('upload.failed.v1', { uploadId, userId, reason: 'The file is not a video.', stage: 'upload' });
    expect(await billing.balance(userId)).toBe(50);
  });

  it('replayed processed and failed events move nothing twice', async () => {
    const { userId, uploadId } = await reservedUpload('server', 200);
    const processed = buildEnvelope('upload.processed.v1', { uploadId, userId, framesProcessed: 200, engine: 'server' });
    await billing.publish(processed);
    await billing.publish(processed); // a redelivery: same message id
    await billing.waitHandled(processed.id);
    // The same facts under new message ids (a producer that published twice), and a late failure.
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 200, engine: 'server' });
    await billing.deliver('upload.failed.v1', { uploadId, userId, reason: 'OCR failed.', stage: 'ocr' });
    await billing.deliver('upload.completed.v1', completed(uploadId, userId, 'server', 200, 20));

    expect(await movements(userId)).toEqual(['grant 50', 'reserve 20', 'capture 20']);
    expect(await billing.balance(userId)).toBe(30);
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'settled', settled_by: 'processed' });
  });

  it('a failed upload replayed after its refund does not refund again', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 40);
    const failed = { uploadId, userId, reason: 'The video could not be read.', stage: 'extraction' } as const;
    await billing.deliver('upload.failed.v1', failed);
    await billing.deliver('upload.failed.v1', failed);
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 40, engine: 'cloud' });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 40', 'release 40']);
    expect(await billing.balance(userId)).toBe(50);
  });

  it('an upload with no reservation (the demo) moves nothing', async () => {
    await billing.deliver('upload.completed.v1', completed('demo', 'demo', 'server', 60, 6));
    await billing.deliver('upload.processed.v1', { uploadId: 'demo', userId: 'demo', framesProcessed: 60, engine: 'server' });
    await billing.deliver('upload.failed.v1', { uploadId: 'demo', userId: 'demo', reason: 'x', stage: 'ocr' });
    expect(await billing.ledger('demo')).toEqual([]);
    expect(await billing.reservation('demo')).toBeUndefined();
  });
});

describe('uploads that stopped early: cancelled by upload, or deleted by their owner', () => {
  it('upload.cancelled.v1 releases the hold in full, once however often it comes', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 12, { complete: false });
    expect(await billing.balance(userId)).toBe(38);
    const cancelled = buildEnvelope('upload.cancelled.v1', { uploadId, userId, reason: 'start-failed' });
    await billing.publish(cancelled);
    await billing.publish(cancelled); // redelivered
    await billing.waitHandled(cancelled.id);
    await billing.deliver('upload.cancelled.v1', { uploadId, userId, reason: 'abandoned' }); // the same fact again, a new id
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 12', 'release 12']);
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'settled', settled_by: 'cancelled', credits_released: 12 });
    expect(await billing.balance(userId)).toBe(50);
  });

  it('a cancel that overtakes its reservation makes the reservation hold nothing (409)', async () => {
    const userId = await billing.newUser();
    const uploadId = randomUUID();
    await billing.deliver('upload.cancelled.v1', { uploadId, userId, reason: 'start-failed' });
    const late = await billing.reserve({ uploadId, userId, engine: 'cloud', frames: 20 });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('billing/upload-cancelled');
    expect(await billing.reservation(uploadId)).toBeUndefined();
    expect(await movements(userId)).toEqual(['grant 50']);
  });

  it('upload.deleted.v1 mid-processing charges the frames read by then and releases the rest; late events move nothing', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 25);
    expect(await billing.balance(userId)).toBe(25);
    await billing.deliver('upload.deleted.v1', { uploadId, userId, framesRead: 7 });
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'settled', settled_by: 'deleted', credits_captured: 7, credits_released: 18 });
    expect(await billing.balance(userId)).toBe(43);

    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 25, engine: 'cloud' });
    await billing.deliver('upload.failed.v1', { uploadId, userId, reason: 'OCR failed.', stage: 'ocr' });
    await billing.deliver('upload.deleted.v1', { uploadId, userId, framesRead: 25 });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 25', 'capture 7', 'release 18']);
    expect(await billing.balance(userId)).toBe(43);
  });

  it('upload.deleted.v1 with nothing read (or from a publisher that does not say) releases the whole hold; Basic rounds up', async () => {
    const none = await reservedUpload('cloud', 25);
    await billing.deliver('upload.deleted.v1', { uploadId: none.uploadId, userId: none.userId, framesRead: 0 });
    expect(await billing.reservation(none.uploadId)).toMatchObject({ settled_by: 'deleted', credits_captured: 0, credits_released: 25 });
    const unsaid = await reservedUpload('cloud', 25);
    await billing.deliver('upload.deleted.v1', { uploadId: unsaid.uploadId, userId: unsaid.userId });
    expect(await billing.reservation(unsaid.uploadId)).toMatchObject({ settled_by: 'deleted', credits_captured: 0, credits_released: 25 });
    // 120 Basic frames hold 12 credits; 13 read cost ceil(1.3) = 2.
    const basic = await reservedUpload('server', 120);
    await billing.deliver('upload.deleted.v1', { uploadId: basic.uploadId, userId: basic.userId, framesRead: 13 });
    expect(await billing.reservation(basic.uploadId)).toMatchObject({ settled_by: 'deleted', credits_captured: 2, credits_released: 10 });
    expect(await billing.balance(basic.userId)).toBe(48);
  });

  it('deleting a processed upload keeps its charge', async () => {
    const { userId, uploadId } = await reservedUpload('cloud', 10);
    await billing.deliver('upload.processed.v1', { uploadId, userId, framesProcessed: 10, engine: 'cloud' });
    await billing.deliver('upload.deleted.v1', { uploadId, userId });
    expect(await movements(userId)).toEqual(['grant 50', 'reserve 10', 'capture 10']);
    expect(await billing.reservation(uploadId)).toMatchObject({ settled_by: 'processed' });
    expect(await billing.balance(userId)).toBe(40);
  });

  it('forgets cancelled upload ids after a week, in the reservation sweep', async () => {
    const userId = await billing.newUser();
    const uploadId = randomUUID();
    await billing.deliver('upload.cancelled.v1', { uploadId, userId, reason: 'abandoned' });
    await releaseAbandonedReservations(billing.ctx, new Date(Date.now() + 6 * 86_400_000));
    expect(await billing.db('cancelled_uploads').where({ upload_id: uploadId }).first()).toBeDefined();
    await releaseAbandonedReservations(billing.ctx, new Date(Date.now() + 8 * 86_400_000));
    expect(await billing.db('cancelled_uploads').where({ upload_id: uploadId }).first()).toBeUndefined();
  });
});

describe('abandoned reservations', () => {
  it('the sweep releases reservations never confirmed within RESERVATION_TTL_HOURS, and only those', async () => {
    const abandoned = await reservedUpload('cloud', 10, { complete: false });
    const confirmed = await reservedUpload('cloud', 10);
    const ttlMs = billing.config.RESERVATION_TTL_HOURS * 3_600_000;

    // Not yet past the TTL: nothing is released.
    expect(await releaseAbandonedReservations(billing.ctx, new Date(Date.now() + ttlMs - 60_000))).not.toContain(abandoned.uploadId);
    expect(await billing.balance(abandoned.userId)).toBe(40);

    const released = await releaseAbandonedReservations(billing.ctx, new Date(Date.now() + ttlMs + 60_000));
    expect(released).toContain(abandoned.uploadId);
    expect(released).not.toContain(confirmed.uploadId);
    expect(await billing.balance(abandoned.userId)).toBe(50);
    expect(await billing.reservation(abandoned.uploadId)).toMatchObject({ status: 'settled', settled_by: 'abandoned', credits_released: 10 });
    expect(await billing.balance(confirmed.userId)).toBe(40);
    expect(await billing.reservation(confirmed.uploadId)).toMatchObject({ status: 'confirmed' });

    // A second sweep, or a late failure event, moves nothing more.
    expect(await releaseAbandonedReservations(billing.ctx, new Date(Date.now() + ttlMs + 60_000))).not.toContain(abandoned.uploadId);
    await billing.deliver('upload.failed.v1', { uploadId: abandoned.uploadId, userId: abandoned.userId, reason: 'Gave up.', stage: 'upload' });
    expect(await movements(abandoned.userId)).toEqual(['grant 50', 'reserve 10', 'release 10']);
  });
});
