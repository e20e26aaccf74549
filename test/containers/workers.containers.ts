// Scaling the OCR workers in compose (the run has started three ocr-tesseract containers): all three take frames
// of one upload, and one killed mid-upload loses nothing: the upload completes with every frame exactly once,
// and its credits are taken once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, type GeneratedVideo } from '@frametext/sample-media';
import { apiClient, type UploadStatus } from '../support/client.js';
import { BASE_URL, containersOf, jsonLogs, kill, type Container } from './stack.js';

const client = apiClient(BASE_URL);
const SECONDS = 60;
const dir = mkdtempSync(path.join(tmpdir(), 'frametext-it-workers-'));
let video: GeneratedVideo;

beforeAll(async () => {
  video = await makeChargerVideo({ dir, seconds: SECONDS, width: 640, height: 360 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The "frame read" log lines of one upload, from the workers' own logs. */
function framesRead(worker: Container, uploadID: string): { frameIndex: number; time: number }[] {
  return jsonLogs(worker)
    .filter((l) => l.uploadId === uploadID && typeof l.frameIndex === 'number' && /^frame (read|completed)/.test(String(l.msg)))
    .map((l) => ({ frameIndex: l.frameIndex as number, time: Date.parse(String(l.time)) }));
}

/** Which frames of an upload each worker read. */
function framesByWorker(workers: Container[], uploadID: string): Map<string, number[]> {
  return new Map(workers.map((w) => [w.name, framesRead(w, uploadID).map((f) => f.frameIndex)]));
}

/** An upload of the 60-second charger video at one frame a second: 60 frames. */
async function startUpload() {
  const { token } = await client.signUp();
  const before = await client.credits(token);
  const uploadID = await client.uploadVideo(token, video.path, { uploadName: 'Sixty frames', fileName: 'charger.mp4', duration: SECONDS, targetFrameRate: 1, mediaContent: 'numerical' });
  return { token, before, uploadID };
}

/** Processed, each second's frame exactly once and read, and the 60 frames' 6 credits taken once. */
async function expectEveryFrameOnce(token: string, uploadID: string, before: number) {
  const final = await client.waitFor(token, uploadID, undefined, 600_000);
  expect(final).toMatchObject({ status: 'processed', framesTotal: SECONDS, framesDone: SECONDS });
  const details = (await client.call('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
  const frames = details.results.ocrResults as { t: number; detections: { text: string }[] }[];
  expect(frames.map((f) => f.t)).toEqual(Array.from({ length: SECONDS }, (_, i) => i));
  const read = frames.filter((f) => f.detections.map((d) => d.text).join(' ').includes(chargerValues(f.t).battery)).length;
  expect(read / SECONDS).toBeGreaterThanOrEqual(0.9);
  await expect.poll(() => client.credits(token), { timeout: 30_000 }).toBe(before - 6);
}

describe('three OCR workers', () => {
  it('all take frames of one upload of 60 frames', async () => {
    const workers = containersOf('ocr-tesseract');
    expect(workers).toHaveLength(3);
    const { token, before, uploadID } = await startUpload();
    await expectEveryFrameOnce(token, uploadID, before);
    const byWorker = framesByWorker(workers, uploadID);
    for (const [name, frames] of byWorker) console.log(`${name}: ${frames.length} frames of ${uploadID}`);
    for (const [name, frames] of byWorker) expect(frames.length, name).toBeGreaterThan(0);
    // Between them they read every frame (a frame read twice would be a redelivery, which results ignores).
    expect(new Set([...byWorker.values()].flat()).size).toBe(SECONDS);
  });

  it('finish an upload with every frame exactly once when one of them is killed mid-upload', async () => {
    const workers = containersOf('ocr-tesseract');
    const { token, before, uploadID } = await startUpload();
    await client.waitFor(token, uploadID, (s: UploadStatus) => s.framesDone >= 10 || s.status === 'processed' || s.status === 'failed', 300_000);
    const status = await client.status(token, uploadID);
    expect(status?.status).toBe('processing');
    // A worker busy with this upload: the one that read a frame of it most recently (it holds the next ones).
    const lastRead = (w: Container) => Math.max(0, ...framesRead(w, uploadID).map((f) => f.time));
    const victim = [...workers].sort((a, b) => lastRead(b) - lastRead(a))[0]!;
    console.log(`killing ${victim.name} at ${status?.framesDone}/${SECONDS} frames, after it read ${framesRead(victim, uploadID).length} of them`);
    kill(victim);
    await expectEveryFrameOnce(token, uploadID, before);
    const after = framesByWorker(
      workers.filter((w) => w.id !== victim.id),
      uploadID,
    );
    for (const [name, frames] of after) console.log(`${name}: ${frames.length} frames of ${uploadID}`);
  });
});
