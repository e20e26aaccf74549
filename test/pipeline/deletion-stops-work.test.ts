// Deleting an upload stops its work and charges what was read. Through the gateway, on the
// whole pipeline: a long video deleted while it is read, and an upload deleted before it was ever completed.
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeChargerVideo, makeTelemetryVideo } from '@frametext/sample-media';
import { creditCost } from '@frametext/contracts';
import { sampleOf } from '@frametext/service-kit/testing';
import { useStack } from '../support/use-stack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deletion-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stack = useStack();

const credits = async (token: string): Promise<number> => (await stack.api('GET', '/getUserData', undefined, token)).body.credits;
const ofUpload = `envelope->'data'->>'uploadId' = ?`;

/** The events a service wrote about the upload, by type. */
async function written(service: string, type: string, uploadID: string) {
  return stack.db(service)('outbox').where({ type }).whereRaw(ofUpload, [uploadID]).select('id', 'envelope');
}

/** Frames the OCR worker read and published text for (or found unreadable), by its metrics. */
async function framesReadByWorker(): Promise<number> {
  const metrics = await stack.metrics('ocr-tesseract');
  const count = (outcome: string) => sampleOf(metrics, 'frametext_frames_read_total', { engine: 'server', outcome }) || 0;
  return count('read') + count('unreadable');
}

/** Messages ready in the OCR worker's queue, by its metrics. */
async function ocrQueueReady(): Promise<number> {
  return sampleOf(await stack.metrics('ocr-tesseract'), 'frametext_queue_messages', { queue: stack.queue('ocr-tesseract') });
}

/** Waits until `service` has recorded the upload as cancelled (its upload.deleted.v1 handled). */
async function cancelledIn(service: string, uploadID: string): Promise<void> {
  await expect.poll(async () => (await stack.db(service)('cancelled_uploads').where({ upload_id: uploadID }).first()) !== undefined, { timeout: 20_000, interval: 50 }).toBe(true);
}

async function startUpload(token: string, file: string, duration: number) {
  const res = await stack.api('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: path.basename(file), uploadName: 'Long video', duration, targetFrameRate: 1, ocrType: 'server', mediaContent: 'numerical' }, token);
  expect(res.status).toBe(200);
  const put = await fetch(res.body.urls[0], { method: 'PUT', body: await readFile(file), headers: { 'content-type': 'video/mp4' } });
  expect(put.status).toBe(200);
  return res.body.uploadID as string;
}

describe('deleting an upload while it is read', () => {
  it('stops extraction and reading within moments, and charges the frames read by then, not the whole hold', async () => {
    const { token } = await stack.signUp();
    const before = await credits(token);
    // Numbers over a busy moving picture: reading a frame takes longer than extracting it, so frames queue up.
    const video = await makeTelemetryVideo({ dir, seconds: 120, fps: 5 });
    const uploadID = await startUpload(token, video.path, video.durationSeconds);
    // 120 frames of Basic hold ceil(120 x 0.1) = 12 credits.
    const held = creditCost(120, 'server');
    expect(await credits(token)).toBe(before - held);
    expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);

    // Some frames are read (more than ten, so that they cost more than the 1 credit of the first few); then the person
    // deletes it.
    const readBeforeDelete = (await stack.untilUpload(token, uploadID, { done: (s) => s.framesDone >= 11, timeoutMs: 120_000 })).framesDone;
    const deleted = await stack.api('POST', '/deleteUploads', { uploads: [uploadID], deleteUploads: true }, token);
    expect(deleted.body).toEqual({ data: { deleted: [uploadID] } });

    // The workers hear of it. Hearing it, each drops every event it had written about the upload (they carry its
    // text), so any such event found later was written after the deletion reached it.
    await cancelledIn('frame-extraction', uploadID);
    await cancelledIn('ocr-tesseract', uploadID);
    const readAtCancel = await framesReadByWorker();

    // (a) Extraction ends (only this upload's upload.completed.v1 is in its inbox) without asking for another frame or
    // announcing the upload's frames.
    await expect.poll(async () => (await stack.db('frame-extraction')('inbox').where({ type: 'upload.completed.v1' }).first()) !== undefined, { timeout: 60_000, interval: 100 }).toBe(true);
    expect(await written('frame-extraction', 'ocr.requested.v1', uploadID)).toEqual([]);
    expect(await written('frame-extraction', 'frames.extracted.v1', uploadID)).toEqual([]);
    // The worker takes what is left in its queue, reads none of it and publishes no text; stopped, it finishes the
    // frame in hand first. Fewer than the 120 frames were ever asked for.
    await expect.poll(ocrQueueReady, { timeout: 60_000, interval: 100 }).toBe(0);
    expect(await framesReadByWorker()).toBe(readAtCancel);
    await stack.stopOcrWorkers();
    expect(await written('ocr-tesseract', 'ocr.completed.v1', uploadID)).toEqual([]);
    const requested = Number((await stack.db('ocr-tesseract')('inbox').where({ type: 'ocr.requested.v1' }).count({ n: '*' }).first())?.n);
    expect(readAtCancel).toBeLessThanOrEqual(requested);
    expect(requested).toBeLessThan(120);

    // (b) Charged for the frames read when it was deleted (results' count, carried by upload.deleted.v1).
    const [event] = await written('results', 'upload.deleted.v1', uploadID);
    const framesRead = event.envelope.data.framesRead as number;
    expect(framesRead).toBeGreaterThanOrEqual(readBeforeDelete);
    expect(framesRead).toBeLessThanOrEqual(readAtCancel);
    const charged = creditCost(framesRead, 'server');
    expect(charged).toBeGreaterThanOrEqual(2);
    expect(charged).toBeLessThan(held);
    await expect.poll(() => credits(token), { timeout: 15_000 }).toBe(before - charged);
    expect(await stack.db('billing')('reservations').where({ upload_id: uploadID }).first()).toMatchObject({ settled_by: 'deleted', credits_captured: charged, credits_released: held - charged });
    expect((await stack.api('GET', `/checkUploadStatus/${uploadID}`, undefined, token)).status).toBe(410);
  }, 240_000);
});

describe('deleting an upload that was never completed', () => {
  it('deletes it for its owner and releases its hold at once; completing it afterwards is refused', async () => {
    const { token } = await stack.signUp();
    const someoneElse = await stack.signUp();
    const before = await credits(token);
    const video = await makeChargerVideo({ dir, name: 'never-completed.mp4', seconds: 30 });
    // Requested and PUT, never completed: 30 frames hold 3 credits.
    const uploadID = await startUpload(token, video.path, video.durationSeconds);
    expect(await credits(token)).toBe(before - 3);

    // Nobody else can delete it.
    expect((await stack.api('POST', '/deleteUploads', { uploads: [uploadID], deleteUploads: true }, someoneElse.token)).body).toEqual({ data: { deleted: [] } });
    const deleted = await stack.api('POST', '/deleteUploads', { uploads: [uploadID], deleteUploads: true }, token);
    expect(deleted.body).toEqual({ data: { deleted: [uploadID] } });
    await expect.poll(() => credits(token), { timeout: 10_000 }).toBe(before);
    expect(await stack.db('billing')('reservations').where({ upload_id: uploadID }).first()).toMatchObject({ settled_by: 'cancelled', credits_released: 3 });

    const late = await stack.api('POST', '/uploadComplete', { uploadID }, token);
    expect([late.status, late.body.error.code]).toEqual([410, 'upload/deleted']);
    expect((await stack.api('GET', `/checkUploadStatus/${uploadID}`, undefined, token)).status).toBe(410);
    expect(await stack.files.list(`uploads/${uploadID}`)).toEqual([]);
  }, 120_000);
});
