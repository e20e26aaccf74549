// An upload deleted while its frames wait or are read: none of them is read from then on, and no text is published.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_LOCK_CLASS, UploadCancelledError, createDb, startService, type Knex, type RunningService } from '@frametext/service-kit';
import { TEST_DATABASE_URL, eventually, sampleOf, testLogger } from '@frametext/service-kit/testing';
import type { Config } from '../src/config.js';
import { TesseractPool } from '../src/data/tesseract-pool.js';
import { ocrTesseractService, tesseractOptions } from '../src/service.js';
import { makeFrame } from './fixtures.js';
import { newUploadId, ocrWorld, request, type OcrWorld } from './helpers.js';

let world: OcrWorld;
let running: RunningService<Config>;
let frame: Buffer;
// The test's own view of the worker's schema (the worker's pool is the worker's).
let view: Knex;

beforeAll(async () => {
  world = await ocrWorld();
  running = await startService(ocrTesseractService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr') }));
  view = createDb(TEST_DATABASE_URL, world.schema, { max: 3 });
  const path = join(world.config.DATA_DIR, 'deleted-frame.jpg');
  await makeFrame(path, { width: 640, height: 360, background: 'white', texts: [{ text: 'Power 150 kW', x: 60, y: 150, size: 40, color: 'black' }] });
  frame = await readFile(path);
});
afterAll(async () => {
  await view?.destroy();
  await running?.stop();
  await world?.cleanup();
});

const db = () => view;
const handled = async (ids: string[]) => Number((await db()('inbox').whereIn('message_id', ids).count({ n: '*' }).first())?.n) === ids.length;

async function framesOf(uploadId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = `uploads/${uploadId}/frames/00000${i}000.jpg`;
    await world.storage.put(key, frame, { contentType: 'image/jpeg' });
    ids.push(await world.publish('ocr.requested.v1', { ...request(uploadId, i, key, count), mediaContent: 'numerical' }));
  }
  return ids;
}

/** Waits until `count` sessions wait for the upload's cancellation lock (a deletion being recorded, a frame's commit). */
async function waitersOnLock(uploadId: string, count: number): Promise<void> {
  await eventually(async () => {
    const row = await db().raw(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = ? and objid = (hashtext(?)::bigint & 4294967295)::oid and objsubid = 2`,
      [CANCEL_LOCK_CLASS, uploadId],
    );
    return (row.rows[0] as { n: number }).n >= count;
  }, 20_000, 20);
}

describe('a deleted upload in the OCR worker', () => {
  it('skips its queued frames: none is read or published, and other uploads\' frames are read as usual', async () => {
    const deleted = newUploadId();
    const deletion = await world.publish('upload.deleted.v1', { uploadId: deleted, userId: 'someone', framesRead: 0 });
    await eventually(() => handled([deletion]));
    const skipped = await framesOf(deleted, 3);
    const other = newUploadId();
    await framesOf(other, 1);
    await eventually(() => world.completed.some((c) => c.uploadId === other), 20_000);
    await eventually(() => handled(skipped), 20_000);
    expect(world.completed.filter((c) => c.uploadId === deleted)).toEqual([]);
    expect(await db()('outbox').whereRaw(`envelope->'data'->>'uploadId' = ?`, [deleted])).toEqual([]);

    const text = await (await fetch(`http://127.0.0.1:${running.metricsPort}/metrics`)).text();
    expect(sampleOf(text, 'frametext_frames_read_total', { service: world.name, engine: 'server', outcome: 'cancelled' })).toBeGreaterThanOrEqual(3);
  });

  it('does not read a frame that waited for a lane while its upload was deleted', async () => {
    const pool = new TesseractPool(tesseractOptions(world.config), { lanes: 1 });
    let deleted = false;
    const stopIfDeleted = async () => {
      if (deleted) throw new UploadCancelledError('u-1');
    };
    try {
      const first = pool.read(frame, 'eng', undefined, stopIfDeleted);
      const waiting = pool.read(frame, 'eng', undefined, stopIfDeleted);
      // The first image has its lane; the second waits for it when the deletion is recorded.
      deleted = true;
      expect(await first).toContain('150');
      await expect(waiting).rejects.toBeInstanceOf(UploadCancelledError);
      expect(pool.counts.images).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('drops the text of a frame read while the deletion was being recorded', async () => {
    const uploadId = newUploadId();
    const hold = await db().client.acquireConnection();
    let frameIds: string[];
    try {
      // The deletion is being recorded (it waits on the lock the test holds) while the frame is read.
      await db().raw('select pg_advisory_lock(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]).connection(hold);
      await world.publish('upload.deleted.v1', { uploadId, userId: 'someone', framesRead: 0 });
      await waitersOnLock(uploadId, 1);
      frameIds = await framesOf(uploadId, 1);
      // Read, its commit waits behind the deletion.
      await waitersOnLock(uploadId, 2);
      await db().raw('select pg_advisory_unlock(?, hashtext(?))', [CANCEL_LOCK_CLASS, uploadId]).connection(hold);
    } finally {
      await db().client.releaseConnection(hold);
    }
    await eventually(() => handled(frameIds), 20_000);
    expect(world.completed.filter((c) => c.uploadId === uploadId)).toEqual([]);
    expect(await db()('outbox').whereRaw(`envelope->'data'->>'uploadId' = ?`, [uploadId])).toEqual([]);
  });
});
