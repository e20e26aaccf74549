import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '@frametext/service-kit';
import { eventually, testLogger } from '@frametext/service-kit/testing';
import { makeSevenSegmentFrames } from '@frametext/sample-media';
import type { Config } from '../src/config.js';
import { ocrTesseractService } from '../src/service.js';
import { newUploadId, ocrWorld, request, type OcrWorld } from './helpers.js';

let world: OcrWorld;
let running: RunningService<Config>;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seven-segment-service-'));
  world = await ocrWorld();
  running = await startService(ocrTesseractService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr') }));
});
afterAll(async () => {
  await running?.stop();
  await world?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('ocr-tesseract on seven-segment displays', () => {
  it('reads at least 90% of the displayed values exactly, and the labels next to them, through the worker', { timeout: 120_000 }, async () => {
    const frames = [...(await makeSevenSegmentFrames({ dir, seed: 401, count: 3 })), ...(await makeSevenSegmentFrames({ dir, seed: 402, count: 3 }))];
    const uploadId = newUploadId();
    for (const [i, frame] of frames.entries()) {
      const key = `uploads/${uploadId}/frames/${String(i * 1000).padStart(9, '0')}.jpg`;
      await world.storage.put(key, await readFile(frame.path), { contentType: 'image/jpeg' });
      await world.publishRequest({ ...request(uploadId, i, key, frames.length), mediaContent: 'numerical' });
    }
    const done = await eventually(() => {
      const mine = world.completed.filter((c) => c.uploadId === uploadId);
      return mine.length === frames.length ? mine : undefined;
    }, 90_000);

    let found = 0;
    let total = 0;
    let labels = 0;
    let labelsTotal = 0;
    for (const result of done) {
      const frame = frames[result.frameIndex]!;
      expect(result.failureReason ?? null).toBeNull();
      const words = (result.words ?? []).map((w) => w.text);
      total += frame.values.length;
      found += frame.values.filter((v) => words.includes(v)).length;
      // Each value is one word, once.
      for (const v of frame.values) expect(words.filter((w) => w === v).length).toBeLessThanOrEqual(1);
      const multiLetter = frame.labels.filter((l) => l.length > 2);
      labelsTotal += multiLetter.length;
      labels += multiLetter.filter((l) => result.detections.some((d) => d.text.includes(l))).length;
    }
    expect(found / total).toBeGreaterThanOrEqual(0.9);
    // The ordinary text beside the displays is still Tesseract's to read.
    expect(labels / labelsTotal).toBeGreaterThanOrEqual(0.6);
  });
});
