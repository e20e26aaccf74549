import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@frametext/service-kit';
import { eventually, RUN_TYPESCRIPT_SOURCES, settledOutbox, TEST_DATABASE_URL } from '@frametext/service-kit/testing';
import { cloudRequest, cloudWorld, jpegFrame, newUploadId, type CloudWorld } from './support/world.js';

const here = dirname(fileURLToPath(import.meta.url));
const FRAMES = 6;

let world: CloudWorld;
const children: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const env = Object.fromEntries(Object.entries(world.config).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT_SOURCES, join(here, 'worker-child.mjs')], {
    env: { ...process.env, ...env, PORT: '0', OCR_TEST_NAME: world.name, OCR_TEST_SCHEMA: world.schema, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  world = await cloudWorld({ VISION_BATCH_WINDOW_MS: '200' });
}, 180_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await world?.cleanup();
});

describe('a Cloud AI worker killed mid-batch', () => {
  it('loses no frame: nothing was acked before its commit, so another worker reads every frame, once each', async () => {
    const uploadId = newUploadId();
    for (let i = 0; i < FRAMES; i++) {
      const image = await jpegFrame(1000 + i);
      await world.storage.put(`uploads/${uploadId}/frames/${i}.jpg`, image, { contentType: 'image/jpeg' });
      world.google.answer(image, i % 2 ? 'rotated' : 'dashboard');
    }
    // Vision takes the first worker's request and has not answered when the worker dies.
    let release!: () => void;
    world.google.visionHeld = new Promise((resolve) => (release = resolve));

    const first = startWorker();
    await eventually(async () => (await world.consumers()) === 1, 60_000, 200);
    const requests: string[] = [];
    for (let i = 0; i < FRAMES; i++) requests.push(await world.publishRequest(cloudRequest(uploadId, i, `uploads/${uploadId}/frames/${i}.jpg`, { framesTotal: FRAMES })));
    await eventually(() => world.google.visionCalls.length >= 1, 30_000, 20);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    world.google.visionHeld = undefined;
    release();
    expect(world.completed.filter((c) => c.uploadId === uploadId)).toHaveLength(0);

    startWorker();
    const done = await eventually(() => {
      const mine = world.completed.filter((c) => c.uploadId === uploadId);
      return new Set(mine.map((c) => c.frameIndex)).size === FRAMES ? mine : undefined;
    }, 60_000, 50);
    expect(done.map((c) => c.frameIndex).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(done.every((c) => c.failureReason === null && c.detections.length > 0)).toBe(true);
    // One completion per frame: the dead worker committed nothing. Once every request is handled and every event
    // written is sent, the outbox holds every completion there will ever be.
    const db = createDb(TEST_DATABASE_URL, world.schema, { max: 1 });
    const written = await settledOutbox(db, requests).finally(() => db.destroy());
    const completions = written.filter((e) => e.type === 'ocr.completed.v1' && e.data.uploadId === uploadId);
    expect(completions).toHaveLength(FRAMES);
    expect(world.completed.filter((c) => c.uploadId === uploadId)).toHaveLength(FRAMES);
  });
});
