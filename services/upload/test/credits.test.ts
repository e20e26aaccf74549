// Credits always come back: every way getUploadURL can fail once billing may hold credits ends in
// upload.cancelled.v1 (billing releases), and billing's refusal leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueName } from '@frametext/service-kit/testing';
import { insertUpload } from '../src/data/uploads-repo.js';
import { cancelUnfinishedStarts } from '../src/domain/unfinished-starts.js';
import { startUpload, videoRequest, type TestUpload } from './helpers.js';

let svc: TestUpload;

beforeAll(async () => {
  svc = await startUpload();
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const cancels = async (uploadId: string) => (await svc.outbox()).filter((e) => e.type === 'upload.cancelled.v1' && e.data.uploadId === uploadId);
const row = (uploadId: string) => svc.db('uploads').where({ id: uploadId }).first();

/** A gate the fake billing waits at; open() lets the waiting reservations through. */
function gate() {
  let open!: () => void;
  const closed = new Promise<void>((resolve) => (open = resolve));
  return { closed, open };
}

describe('getUploadURL when it cannot finish', () => {
  it('leaves nothing behind when billing refuses the hold (402): no row, no event', async () => {
    const user = uniqueName('broke_user');
    svc.billing.balances.set(user, 0);
    const res = await svc.post('/api/getUploadURL', videoRequest(), { user });
    expect(res.status).toBe(402);
    const uploadId = svc.billing.calls.at(-1)!.uploadId;
    expect(await row(uploadId)).toBeUndefined();
    expect(await cancels(uploadId)).toEqual([]);
  });

  it('leaves nothing behind when billing refuses for another reason (409), and answers 503', async () => {
    svc.billing.failWith = 409;
    try {
      const res = await svc.post('/api/getUploadURL', videoRequest());
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('upload/billing-unavailable');
    } finally {
      svc.billing.failWith = undefined;
    }
    const uploadId = svc.billing.calls.at(-1)!.uploadId;
    expect(await row(uploadId)).toBeUndefined();
    expect(await cancels(uploadId)).toEqual([]);
  });

  it('cancels through the outbox when billing fails (500): it may have held credits', async () => {
    const user = uniqueName('unlucky_user');
    svc.billing.failWith = 500;
    try {
      expect((await svc.post('/api/getUploadURL', videoRequest(), { user })).status).toBe(503);
    } finally {
      svc.billing.failWith = undefined;
    }
    const uploadId = svc.billing.calls.at(-1)!.uploadId;
    expect(await row(uploadId)).toMatchObject({ user_id: user, status: 'failed', failure_code: 'upload/start-failed' });
    expect((await cancels(uploadId)).map((e) => e.data)).toEqual([{ uploadId, userId: user, reason: 'start-failed' }]);
  });

  it('cancels when billing answers after BILLING_TIMEOUT_MS, having made the hold', async () => {
    const user = uniqueName('slow_user');
    const slow = gate();
    svc.billing.gate = slow.closed;
    let uploadId: string;
    try {
      const res = await svc.post('/api/getUploadURL', videoRequest(), { user });
      expect(res.status).toBe(503);
      uploadId = svc.billing.calls.at(-1)!.uploadId;
    } finally {
      svc.billing.gate = undefined;
      slow.open();
    }
    // Billing made the hold after upload stopped waiting: only the cancel gets it back.
    await eventually(() => svc.billing.holds(uploadId));
    expect((await cancels(uploadId)).map((e) => e.data.reason)).toEqual(['start-failed']);
    expect((await row(uploadId)).status).toBe('failed');
  });

  it('cancels when presigning fails after the hold', async () => {
    const user = uniqueName('presign_user');
    const presign = svc.ctx.storage.presignPut;
    svc.ctx.storage.presignPut = () => Promise.reject(new Error('the signing key is gone'));
    try {
      expect((await svc.post('/api/getUploadURL', videoRequest(), { user })).status).toBe(500);
    } finally {
      svc.ctx.storage.presignPut = presign;
    }
    const uploadId = svc.billing.calls.at(-1)!.uploadId;
    expect(svc.billing.holds(uploadId)).toBe(true);
    expect(await row(uploadId)).toMatchObject({ status: 'failed', failure_code: 'upload/start-failed' });
    expect((await cancels(uploadId)).map((e) => e.data)).toEqual([{ uploadId, userId: user, reason: 'start-failed' }]);
  });

  it('answers 503 when the sweep cancelled the start while billing was answering, and publishes one cancel', async () => {
    const user = uniqueName('race_user');
    const slow = gate();
    svc.billing.gate = slow.closed;
    let answer: Awaited<ReturnType<TestUpload['post']>>;
    try {
      const pending = svc.post('/api/getUploadURL', videoRequest(), { user });
      const uploadId = await eventually(() => svc.billing.calls.find((c) => c.userId === user)?.uploadId);
      // Minutes pass (as far as the sweep can tell): it cancels the start before billing has answered.
      expect(await cancelUnfinishedStarts(svc.ctx, new Date(Date.now() + 10 * 60_000))).toContain(uploadId);
      slow.open();
      answer = await pending;
    } finally {
      svc.billing.gate = undefined;
      slow.open();
    }
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('upload/start-failed');
    const uploadId = svc.billing.calls.find((c) => c.userId === user)!.uploadId;
    expect(svc.billing.holds(uploadId)).toBe(true);
    expect((await cancels(uploadId)).map((e) => e.data.reason)).toEqual(['start-failed']);
  });
});

describe('the unfinished-start sweep', () => {
  it('cancels a start that died between its steps once UNFINISHED_START_AFTER_SECONDS have passed, and leaves fresh ones', async () => {
    const user = uniqueName('crashed_user');
    const stored = (id: string) => ({
      id,
      userId: user,
      name: 'crashed',
      kind: 'video' as const,
      engine: 'server' as const,
      mediaContent: 'numerical' as const,
      intervalSeconds: 15,
      slideDetection: false,
      sortPreference: null,
      originalLanguage: null,
      targetLanguage: null,
      mimeType: 'video/mp4',
      fileNames: null,
      timestamps: null,
      durationSeconds: 60,
      framesRequested: 4,
      framesAllowed: 0,
      creditCost: 0,
      objectKeys: [`uploads/${id}/source/video.mp4`],
      status: 'reserving' as const,
    });
    // What a process that died after storing the row (and perhaps after billing held credits) leaves behind.
    const dead = uniqueName('dead');
    const fresh = uniqueName('fresh');
    await insertUpload(svc.db, stored(dead));
    await insertUpload(svc.db, stored(fresh));
    const after = svc.config.UNFINISHED_START_AFTER_SECONDS * 1000;
    await svc.db('uploads').where({ id: dead }).update({ created_at: new Date(Date.now() - after - 1000) });

    expect(await cancelUnfinishedStarts(svc.ctx)).toEqual([dead]);
    expect(await row(dead)).toMatchObject({ status: 'failed', failure_code: 'upload/start-failed' });
    expect((await cancels(dead)).map((e) => e.data)).toEqual([{ uploadId: dead, userId: user, reason: 'start-failed' }]);
    expect((await row(fresh)).status).toBe('reserving');
    expect(await cancels(fresh)).toEqual([]);

    // A start in progress is not the user's upload yet: uploadComplete does not find it.
    expect((await svc.post('/api/uploadComplete', { uploadID: fresh }, { user })).status).toBe(404);
    // Run again: nothing more is cancelled twice.
    expect(await cancelUnfinishedStarts(svc.ctx)).toEqual([]);
    expect(await cancels(dead)).toHaveLength(1);
  });

  it('refuses a setting that would cancel live requests', async () => {
    const { configSchema } = await import('../src/config.js');
    const parsed = configSchema.safeParse({ BILLING_TIMEOUT_MS: '5000', UNFINISHED_START_AFTER_SECONDS: '20' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['UNFINISHED_START_AFTER_SECONDS']);
  });
});
