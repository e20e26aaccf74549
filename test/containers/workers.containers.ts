// Scaling the OCR workers in compose (the run has started three ocr-tesseract containers): all three take frames
// of one upload, and one killed mid-upload loses nothing: the upload completes with every frame exactly once,
// and its credits are taken once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, type GeneratedVideo } from '@frametext/sample-media';
import { apiClient, type UploadStatus } from '../support/client.js';
import { BASE_URL, containersOf, identityMail, jsonLogs, kill, type Container } from './stack.js';

const client = apiClient(BASE_URL, { mail: identityMail });
const dir = mkdtempSync(path.join(tmpdir(), 'frametext-it-workers-'));
/** 60 frames; and 240 for the kill, so that the upload is still being read when a worker dies. */
let short: GeneratedVideo;
let long: GeneratedVideo;

beforeAll(async () => {
  [short, long] = await Promise.all([
    makeChargerVideo({ dir, name: 'short.mp4', seconds: 60, width: 640, height: 360 }),
    makeChargerVideo({ dir, name: 'long.mp4', seconds: 240, width: 640, height: 360 }),
  ]);
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

/** An upload of a charger video at one frame a second: a frame per second of it. */
async function startUpload(video: GeneratedVideo) {
  const { token } = await client.signUp();
  const before = await client.credits(token);
  const uploadID = await client.uploadVideo(token, video.path, {
    uploadName: `${video.durationSeconds} frames`,
    fileName: 'charger.mp4',
    duration: video.durationSeconds,
    targetFrameRate: 1,
    mediaContent: 'numerical',
  });
  return { token, before, uploadID, seconds: video.durationSeconds };
}

/** Processed, each second's frame exactly once and read, and its credits (one per 10 frames) taken once. */
async function expectEveryFrameOnce({ token, uploadID, before, seconds }: Awaited<ReturnType<typeof startUpload>>) {
  const final = await client.waitFor(token, uploadID, undefined, 600_000);
  expect(final).toMatchObject({ status: 'processed', framesTotal: seconds, framesDone: seconds });
  const details = (await client.call('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
  const frames = details.results.ocrResults as { t: number; detections: { text: string }[] }[];
  expect(frames.map((f) => f.t)).toEqual(Array.from({ length: seconds }, (_, i) => i));
  const read = frames.filter((f) => f.detections.map((d) => d.text).join(' ').includes(chargerValues(f.t).battery)).length;
  expect(read / seconds).toBeGreaterThanOrEqual(0.9);
  await expect.poll(() => client.credits(token), { timeout: 30_000 }).toBe(before - Math.ceil(seconds / 10));
}

describe('three OCR workers', () => {
  it('all take frames of one upload of 60 frames', async () => {
    const workers = containersOf('ocr-tesseract');
    expect(workers).toHaveLength(3);
    const upload = await startUpload(short);
    const { uploadID } = upload;
    await expectEveryFrameOnce(upload);
    const byWorker = framesByWorker(workers, uploadID);
    for (const [name, frames] of byWorker) console.log(`${name}: ${frames.length} frames of ${uploadID}`);
    for (const [name, frames] of byWorker) expect(frames.length, name).toBeGreaterThan(0);
    // Between them they read every frame (a frame read twice would be a redelivery, which results ignores).
    expect(new Set([...byWorker.values()].flat()).size).toBe(upload.seconds);
  });

  it('finish an upload with every frame exactly once when one of them is killed mid-upload', async () => {
    const workers = containersOf('ocr-tesseract');
    const upload = await startUpload(long);
    const { token, uploadID } = upload;
    await client.waitFor(token, uploadID, (s: UploadStatus) => s.framesDone >= 10 || s.status === 'processed' || s.status === 'failed', 300_000);
    const status = await client.status(token, uploadID);
    expect(status?.status).toBe('processing');
    // A worker busy with this upload: the one that read a frame of it most recently (it holds the next ones).
    const lastRead = (w: Container) => Math.max(0, ...framesRead(w, uploadID).map((f) => f.time));
    const victim = [...workers].sort((a, b) => lastRead(b) - lastRead(a))[0]!;
    console.log(`killing ${victim.name} at ${status?.framesDone}/${upload.seconds} frames, after it read ${framesRead(victim, uploadID).length} of them`);
    kill(victim);
    await expectEveryFrameOnce(upload);
    const after = framesByWorker(
      workers.filter((w) => w.id !== victim.id),
      uploadID,
    );
    for (const [name, frames] of after) console.log(`${name}: ${frames.length} frames of ${uploadID}`);
  });
});
