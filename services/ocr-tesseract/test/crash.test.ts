import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@frametext/service-kit';
import { eventually, RUN_TYPESCRIPT_SOURCES, settledOutbox, TEST_DATABASE_URL } from '@frametext/service-kit/testing';
import { makeBusyFrames } from '../bench/frames.js';
import { newUploadId, ocrWorld, request, type OcrWorld } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const FRAMES = 8;

let world: OcrWorld;
const children: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT_SOURCES, join(here, 'worker-child.mjs')], {
    env: { ...process.env, ...world.env, OCR_TEST_NAME: world.name, OCR_TEST_SCHEMA: world.schema, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  world = await ocrWorld();
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await world?.cleanup();
});

describe('a worker killed while it reads', () => {
  it('loses no frame: every frame completes, once per frame, after another worker takes over', async () => {
    const uploadId = newUploadId();
    const frames = await makeBusyFrames({ dir: world.config.DATA_DIR, count: FRAMES, width: 640, height: 360 });
    for (const [i, f] of frames.entries()) await world.storage.put(`uploads/${uploadId}/frames/${i}.jpg`, await readFile(f.path), { contentType: 'image/jpeg' });

    const first = startWorker();
    // Wait until the worker consumes (its queue exists once it is up), then send the batch.
    await eventually(() => queueHasConsumer(world), 30_000, 200);
    const requests: string[] = [];
    for (let i = 0; i < FRAMES; i++) requests.push(await world.publish('ocr.requested.v1', request(uploadId, i, `uploads/${uploadId}/frames/${i}.jpg`, FRAMES)));

    await eventually(() => world.completed.filter((c) => c.uploadId === uploadId).length >= 1, 30_000, 10);
    first.kill('SIGKILL');
    const doneAtKill = new Set(world.completed.filter((c) => c.uploadId === uploadId).map((c) => c.frameIndex)).size;
    expect(doneAtKill).toBeLessThan(FRAMES);

    startWorker();
    await eventually(() => new Set(world.completed.filter((c) => c.uploadId === uploadId).map((c) => c.frameIndex)).size === FRAMES, 60_000, 50);
    // Every request handled (in the inbox, so a redelivery changes nothing) and every completion either worker wrote
    // sent: the outbox now holds every completion there will ever be, one per frame.
    const db = createDb(TEST_DATABASE_URL, world.schema, { max: 1 });
    const written = await settledOutbox(db, requests).finally(() => db.destroy());
    const completions = written.filter((e) => e.type === 'ocr.completed.v1' && e.data.uploadId === uploadId);
    expect(completions.map((e) => e.data.frameIndex as number).sort((a, b) => a - b)).toEqual(Array.from({ length: FRAMES }, (_, i) => i));
    // And the wire carried those, each seen before the checks below.
    await eventually(() => completions.every((e) => world.completedIds.includes(e.id)), 10_000, 20);

    const mine = world.completed.map((c, i) => ({ c, id: world.completedIds[i]! })).filter((x) => x.c.uploadId === uploadId);
    expect(new Set(mine.map((x) => x.id))).toEqual(new Set(completions.map((e) => e.id)));
    const byFrame = new Map<number, Set<string>>();
    for (const { c, id } of mine) byFrame.set(c.frameIndex, (byFrame.get(c.frameIndex) ?? new Set()).add(id));
    // Once per frame: a copy on the wire could only be the same outbox row sent again (same envelope id).
    for (const [frameIndex, ids] of byFrame) expect(ids.size, `frame ${frameIndex} was completed by ${ids.size} different events`).toBe(1);
    for (const { c } of mine) {
      expect(c.failureReason ?? null).toBeNull();
      expect(c.detections.map((d) => d.text).join(' ')).toContain(frames[c.frameIndex]!.truth[0]);
    }
    console.log(`crash test: ${doneAtKill}/${FRAMES} frames done when the worker was killed; ${mine.length} ocr.completed messages seen for ${FRAMES} frames`);
  }, 120_000);
});

async function queueHasConsumer(w: OcrWorld): Promise<boolean> {
  const { connect } = await import('amqplib');
  const conn = await connect(w.env.RABBITMQ_URL!);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    const q = await ch.checkQueue(w.name).catch(() => null);
    return Boolean(q && q.consumerCount > 0);
  } finally {
    await conn.close().catch(() => undefined);
  }
}
