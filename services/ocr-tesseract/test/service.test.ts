import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '@frametext/service-kit';
import { eventually, sampleOf, testLogger } from '@frametext/service-kit/testing';
import type { Config } from '../src/config.js';
import { ocrTesseractService } from '../src/service.js';
import { makeFrame } from './fixtures.js';
import { newUploadId, ocrWorld, request, type OcrWorld } from './helpers.js';

let world: OcrWorld;
let running: RunningService<Config>;

beforeAll(async () => {
  world = await ocrWorld();
  running = await startService(ocrTesseractService(world.config, { name: world.name, dbSchema: world.schema, logger: testLogger('ocr') }));
});
afterAll(async () => {
  await running?.stop();
  await world?.cleanup();
});

describe('ocr-tesseract service', () => {
  it('reads a frame from storage and publishes its text as ocr.completed.v1', async () => {
    const uploadId = newUploadId();
    const key = `uploads/${uploadId}/frames/000002000.jpg`;
    const path = join(world.config.DATA_DIR, 'frame.jpg');
    await makeFrame(path, { width: 640, height: 360, background: 'busy', at: 6, texts: [{ text: 'DELTA 314 km', x: 150, y: 280, size: 36, color: 'white' }] });
    await world.storage.put(key, await readFile(path), { contentType: 'image/jpeg' });
    await world.publishRequest(request(uploadId, 2, key, 3));

    const done = await eventually(() => world.completed.find((c) => c.uploadId === uploadId), 20_000);
    expect(done.frameIndex).toBe(2);
    expect(done.timestampMs).toBe(2000);
    expect(done.engine).toBe('server');
    expect(done.failureReason ?? null).toBeNull();
    expect(done.imageWidth).toBe(640);
    expect(done.imageHeight).toBe(360);
    expect(done.detections.map((d) => d.text)).toContain('DELTA 314 km');
    expect(done.words?.some((w) => w.text === 'DELTA')).toBe(true);
  });

  it.each([
    { language: 'de', line: 'Größe der Prüfung übermäßig', words: ['Größe', 'Prüfung', 'übermäßig'] },
    { language: 'fr', line: 'Élève à côté du théâtre', words: ['Élève', 'à', 'côté', 'théâtre'] },
  ])('reads a $language frame with its language model: umlauts and accents come out as written', async ({ language, line, words }) => {
    const path = join(world.config.DATA_DIR, `${language}.jpg`);
    await makeFrame(path, { width: 960, height: 360, background: 'white', texts: [{ text: line, x: 40, y: 150, size: 40, color: 'black' }] });
    const readAs = async (originalLanguage: string | null) => {
      const uploadId = newUploadId();
      const key = `uploads/${uploadId}/frames/000000000.jpg`;
      await world.storage.put(key, await readFile(path), { contentType: 'image/jpeg' });
      await world.publishRequest({ ...request(uploadId, 0, key), mediaContent: 'presentation', originalLanguage, targetLanguage: null });
      const done = await eventually(() => world.completed.find((c) => c.uploadId === uploadId), 20_000);
      return done.detections.map((d) => d.text).join(' ').split(/\s+/);
    };
    const read = await readAs(language);
    for (const word of words) expect(read, read.join(' ')).toContain(word);
    // Auto reads with the default English model, which has no umlauts or accents to give.
    expect(read.join(' ')).not.toBe((await readAs(null)).join(' '));
  });

  it('completes a frame that is not an image with a failure reason and no detections', async () => {
    const uploadId = newUploadId();
    const key = `uploads/${uploadId}/frames/000000000.jpg`;
    await world.storage.put(key, Buffer.from('definitely not a jpeg'), { contentType: 'image/jpeg' });
    await world.publishRequest(request(uploadId, 0, key));
    const done = await eventually(() => world.completed.find((c) => c.uploadId === uploadId), 20_000);
    expect(done.detections).toEqual([]);
    expect(done.failureReason).toMatch(/could not be read/);
  });

  it('completes a frame missing from storage with a reason, and reads the frame that arrived after it', async () => {
    const uploadId = newUploadId();
    const key = (i: number) => `uploads/${uploadId}/frames/00000${i}000.jpg`;
    const path = join(world.config.DATA_DIR, 'after-missing.jpg');
    await makeFrame(path, { width: 640, height: 360, background: 'white', texts: [{ text: 'Power 150 kW', x: 60, y: 150, size: 40, color: 'black' }] });
    await world.storage.put(key(1), await readFile(path), { contentType: 'image/jpeg' });
    // The first frame to arrive reads the upload first, and the second waits for it: its failure must not hold it up.
    await world.publishRequest({ ...request(uploadId, 0, key(0), 2), mediaContent: 'numerical' });
    await world.publishRequest({ ...request(uploadId, 1, key(1), 2), mediaContent: 'numerical' });
    const missing = await eventually(() => world.completed.find((c) => c.uploadId === uploadId && c.frameIndex === 0), 20_000);
    expect(missing.detections).toEqual([]);
    expect(missing.failureReason).toBe('The frame image is missing from storage.');
    const read = await eventually(() => world.completed.find((c) => c.uploadId === uploadId && c.frameIndex === 1), 20_000);
    expect(read.failureReason ?? null).toBeNull();
    expect(read.detections.map((d) => d.text)).toContain('Power 150 kW');
  });

  it('shows on its metrics listener the frames it read, their time, the messages it handled, its queue, outbox and pool', async () => {
    const text = await (await fetch(`http://127.0.0.1:${running.metricsPort}/metrics`)).text();
    const value = (name: string, labels: Record<string, string> = {}) => sampleOf(text, name, { service: world.name, ...labels });
    expect(value('frametext_frames_read_total', { engine: 'server', outcome: 'read' })).toBeGreaterThanOrEqual(1);
    expect(value('frametext_frames_read_total', { engine: 'server', outcome: 'unreadable' })).toBeGreaterThanOrEqual(1);
    expect(value('frametext_ocr_frame_seconds_count', { engine: 'server' })).toBeGreaterThanOrEqual(2);
    expect(value('frametext_bus_messages_total', { queue: world.name, outcome: 'handled' })).toBeGreaterThanOrEqual(2);
    expect(value('frametext_queue_consumers', { queue: world.name })).toBe(1);
    expect(value('frametext_queue_messages', { queue: `${world.name}.dlq` })).toBe(0);
    expect(value('frametext_outbox_backlog')).toBe(0);
    expect(value('frametext_db_pool_connections', { state: 'pending' })).toBe(0);
  });

  it('is ready only when tesseract answers', async () => {
    const res = await fetch(`http://127.0.0.1:${running.port}/health/ready`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toMatch(/tesseract/);
  });
});
