import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, startService, type Knex, type RunningService } from '@frametext/service-kit';
import { eventually, TEST_DATABASE_URL, testLogger } from '@frametext/service-kit/testing';
import { makeBusyFrames } from '../bench/frames.js';
import type { Config } from '../src/config.js';
import { ocrTesseractService } from '../src/service.js';
import { newUploadId, ocrWorld, request, type OcrWorld } from './helpers.js';

const CONCURRENCY = 8;
/** The worker's connections doing something: running a statement or inside a transaction (the LISTEN one waits). */
const BUSY_CONNECTIONS = "select count(*)::int as n from pg_stat_activity where application_name = ? and state <> 'idle' and query not like 'LISTEN%'";
const FRAMES = 32;

let world: OcrWorld;
let running: RunningService<Config>;
let admin: Knex;

beforeAll(async () => {
  // A pool far larger than needed, so that only the way messages are handled can keep the count down.
  world = await ocrWorld({ OCR_CONCURRENCY: String(CONCURRENCY), DB_POOL_MAX: '20' });
  running = await startService(ocrTesseractService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr') }));
  admin = createDb(TEST_DATABASE_URL, 'public', { max: 1 });
}, 60_000);
afterAll(async () => {
  await admin?.destroy();
  await running?.stop();
  await world?.cleanup();
});

describe('database connections of an OCR worker', () => {
  it(`are busy only for short commits while ${CONCURRENCY} frames are read at once: Tesseract runs with no transaction open`, async () => {
    const uploadId = newUploadId();
    const frames = await makeBusyFrames({ dir: world.config.DATA_DIR, count: FRAMES, width: 640, height: 360 });
    for (const [i, f] of frames.entries()) await world.storage.put(`uploads/${uploadId}/frames/${i}.jpg`, await readFile(f.path), { contentType: 'image/jpeg' });

    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await admin.raw<{ rows: { n: number }[] }>(BUSY_CONNECTIONS, [world.name]);
        samples.push(rows[0]!.n);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    for (let i = 0; i < FRAMES; i++) await world.publishRequest(request(uploadId, i, `uploads/${uploadId}/frames/${i}.jpg`, FRAMES));
    await eventually(() => new Set(world.completed.filter((c) => c.uploadId === uploadId).map((c) => c.frameIndex)).size === FRAMES, 120_000, 50);
    sampling = false;
    await sampler;

    console.log(samples.join(" "));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    const median = [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
    console.log(
      `connections: ${median} busy at the median, ${mean.toFixed(2)} on average (active or in a transaction), at most ${Math.max(...samples)}, over ${samples.length} samples while ${FRAMES} frames were read ${CONCURRENCY} at a time`,
    );
    // Busy only for the inbox check and the short commit of each frame, whatever the concurrency: one or two at
    // most times here, more in the moments when several frames finish together. A transaction per frame in hand
    // keeps one connection busy per frame being read: about 8 at most times.
    expect(samples.length).toBeGreaterThan(10);
    expect(median).toBeLessThan(CONCURRENCY / 4);
  }, 150_000);
});
