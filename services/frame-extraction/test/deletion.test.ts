// An upload deleted before or while it is extracted: its work stops at the next frame, whatever replica holds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChargerVideo, type GeneratedVideo } from '@frametext/sample-media';
import { CANCEL_LOCK_CLASS } from '@frametext/service-kit';
import { eventually } from '@frametext/service-kit/testing';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
let video: GeneratedVideo;

beforeAll(async () => {
  h = await startHarness();
  video = await makeChargerVideo({ dir: h.workDir, seconds: 20, width: 640, height: 360 });
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

const videoUpload = (uploadId: string) => ({ uploadId, kind: 'video' as const, objectKeys: [`uploads/${uploadId}/source/video.mp4`], intervalSeconds: 1, durationSeconds: 20 });

async function storedVideo(uploadId: string): Promise<void> {
  await h.putFile(`uploads/${uploadId}/source/video.mp4`, video.path);
}

/** What frame-extraction said of the upload on the wire (the upload's own events left out). */
async function saidOf(uploadId: string) {
  const rows = await h.db('outbox').whereRaw(`envelope->'data'->>'uploadId' = ?`, [uploadId]).select('type');
  return rows.map((r: { type: string }) => r.type);
}

/**
 * Waits until `count` sessions wait for the cancellation lock of the upload (an OCR request being written, a
 * cancellation being recorded): the moment they queue is known without sleeping.
 */
async function waitersOnLock(uploadId: string, count: number): Promise<void> {
  await eventually(async () => {
    const row = await h.db.raw(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = ? and objid = (hashtext(?)::bigint & 4294967295)::oid and objsubid = 2`,
      [CANCEL_LOCK_CLASS, uploadId],
    );
    return (row.rows[0] as { n: number }).n >= count;
  }, 20_000, 20);
}

describe('deleting an upload stops its extraction', () => {
  it('a deletion that arrives first: the upload is never extracted', async () => {
    const uploadId = crypto.randomUUID();
    await storedVideo(uploadId);
    await h.deleteUpload(uploadId);
    await h.publishUpload(videoUpload(uploadId));
    await h.extractionEnded(uploadId);
    expect(await saidOf(uploadId)).toEqual([]);
    expect(await h.storage.list(`uploads/${uploadId}/frames`)).toEqual([]);
  });

  it('a deletion mid-extraction: the frame being asked for is the last one, and neither frames.extracted nor a failure follows', async () => {
    const uploadId = crypto.randomUUID();
    await storedVideo(uploadId);
    // Hold the upload's cancellation lock, so the extraction waits on its first frame's OCR request.
    const hold = await h.db.client.acquireConnection();
    try {
      await h.db.raw('select pg_advisory_lock(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]).connection(hold);
      await h.publishUpload(videoUpload(uploadId));
      await waitersOnLock(uploadId, 1);
      // The deletion comes while frame 0's request waits: its record queues behind that request.
      const deleted = h.deleteUpload(uploadId);
      await waitersOnLock(uploadId, 2);
      await h.db.raw('select pg_advisory_unlock(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]).connection(hold);
      await deleted;
    } finally {
      await h.db.client.releaseConnection(hold);
    }
    await h.extractionEnded(uploadId);

    // Frame 0 was asked for before the deletion was recorded, which then took that request back with everything else
    // said of the upload; nothing was asked after it, of the 20 frames.
    expect(await saidOf(uploadId)).toEqual([]);
    expect((await h.storage.list(`uploads/${uploadId}/frames`)).length).toBeLessThanOrEqual(2);
    expect(await h.db('cancelled_uploads').where({ upload_id: uploadId }).first()).toBeDefined();
  });
});
