// Media made in the test goes through the gateway's contract and the whole pipeline (upload, frame extraction,
// Tesseract, results, billing) on the real Postgres and RabbitMQ; the recognised text, frame times, slide count,
// photo order and credits are checked as a user would see them.
import { readFile, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, ffmpeg, makeChargerVideo, makePhotoSeries, makeSlidesVideo } from '@frametext/sample-media';
import { startPipelineStack, type PipelineStack } from './support/pipeline-stack.js';

let stack: PipelineStack;
const dir = mkdtempSync(path.join(tmpdir(), 'pipeline-media-'));

beforeAll(async () => {
  stack = await startPipelineStack();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

async function put(url: string, file: string, type: string) {
  const res = await fetch(url, { method: 'PUT', body: await readFile(file), headers: { 'content-type': type } });
  expect(res.status).toBe(200);
}

async function credits(token: string): Promise<number> {
  return (await stack.api('GET', '/getUserData', undefined, token)).body.credits;
}

/** Polls checkUploadStatus as the SPA does, recording every progress it saw, until processed or failed. */
async function follow(token: string, uploadID: string, timeoutMs = 120_000) {
  const seen: { status: string; framesDone?: number; framesTotal?: number }[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await stack.api('GET', `/checkUploadStatus/${uploadID}`, undefined, token);
    if (res.status === 200) {
      const data = res.body.data;
      seen.push({ status: data.status, framesDone: data.framesDone, framesTotal: data.framesTotal });
      if (data.status === 'processed' || data.status === 'failed') return { final: data, seen };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`upload ${uploadID} did not finish: ${JSON.stringify(seen.at(-1))}`);
}

async function uploadVideo(token: string, file: string, body: Record<string, unknown>) {
  const res = await stack.api('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: path.basename(file), ocrType: 'server', ...body }, token);
  expect(res.status).toBe(200);
  await put(res.body.urls[0], file, 'video/mp4');
  return res.body.uploadID as string;
}

describe('a video through the whole pipeline', () => {
  it('counts frames up to processed and returns the right numbers in the right frames, charging for what was processed', async () => {
    const { token } = await stack.signUp();
    const before = await credits(token);
    const video = await makeChargerVideo({ dir, seconds: 20 });
    const uploadID = await uploadVideo(token, video.path, { uploadName: 'Charging session', duration: video.durationSeconds, targetFrameRate: 1 / 3, mediaContent: 'numerical' });
    expect(await credits(token)).toBe(before - 1); // ceil(7 frames x 0.1) held

    expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);
    const { final, seen } = await follow(token, uploadID);
    expect(final.status).toBe('processed');
    expect(final.framesTotal).toBe(7);
    expect(seen.some((s) => s.status === 'processing' && (s.framesDone ?? 0) < 7)).toBe(true);

    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
    const frames = details.results.ocrResults as { t: number; detections: { text: string }[] }[];
    expect(frames.map((f) => f.t)).toEqual([0, 3, 6, 9, 12, 15, 18]);
    expect(details.urls.map((u: string) => Number(/\/(\d+)\.jpg/.exec(new URL(u).pathname)![1]))).toEqual([0, 3000, 6000, 9000, 12000, 15000, 18000]);
    let found = 0;
    for (const f of frames) {
      const text = norm(f.detections.map((d) => d.text).join('\n'));
      const want = chargerValues(f.t);
      found += [want.battery, want.power, want.elapsed].filter((v) => text.includes(v)).length;
    }
    expect(found / (frames.length * 3)).toBeGreaterThanOrEqual(0.9);
    expect(await credits(token)).toBe(before - 1);

    const list = (await stack.api('GET', '/getUploads', undefined, token)).body.data.uploads;
    expect(list[0]).toMatchObject({ id: uploadID, uploadName: 'Charging session', status: 'processed', mediaContent: 'numerical', isLocal: false });
    expect((await fetch(list[0].imageUrl)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('keeps one frame per slide in presentation mode with slide detection, and writes the slides text file', async () => {
    const { token } = await stack.signUp();
    const slides = [
      ['Quarterly review', 'Revenue grew in every region'],
      ['Customer stories', 'Three teams shipped faster'],
      ['Next steps', 'Hire two more engineers'],
    ];
    const video = await makeSlidesVideo({ dir, slides, secondsPerSlide: 6 });
    const uploadID = await uploadVideo(token, video.path, { uploadName: 'Deck', duration: video.durationSeconds, targetFrameRate: 1 / 3, mediaContent: 'presentation', slideDetection: true });
    await stack.api('POST', '/uploadComplete', { uploadID }, token);
    const { final } = await follow(token, uploadID);
    expect(final.status).toBe('processed');
    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=presentation`, undefined, token)).body;
    expect(details.results.ocrResults.map((f: { t: number }) => f.t)).toEqual([0, 6, 12]);
    const text = await (await fetch(details.results.resultsUrl)).text();
    for (const [title] of slides) expect(text).toContain(title);
  });
});

describe('a photo series', () => {
  it('comes back in capture-time order when asked, whatever the file names', async () => {
    const { token } = await stack.signUp();
    const photos = await makePhotoSeries({
      dir,
      photos: [
        { name: 'a-last.jpg', lines: ['Third board'], capturedAt: new Date('2024-05-01T10:20:00Z') },
        { name: 'b-first.jpg', lines: ['First board'], capturedAt: new Date('2024-05-01T10:00:00Z'), orientation: 6 },
        { name: 'c-middle.jpg', lines: ['Second board'], capturedAt: new Date('2024-05-01T10:10:00Z') },
      ],
    });
    const files = photos.map((p) => ({ name: p.name, type: 'image/jpeg', lastModified: Date.parse('2024-06-01T00:00:00Z') }));
    const res = await stack.api('POST', '/getUploadURL', { kind: 'photos', isVideo: false, mimeType: 'image/jpeg', files, sortPreference: 'timestamp', uploadName: 'Whiteboards', ocrType: 'server', mediaContent: 'numerical' }, token);
    expect(res.status).toBe(200);
    for (const [i, p] of photos.entries()) await put(res.body.urls[i], p.path, 'image/jpeg');
    await stack.api('POST', '/uploadComplete', { uploadID: res.body.uploadID }, token);
    const { final } = await follow(token, res.body.uploadID);
    expect(final.status).toBe('processed');
    const details = (await stack.api('GET', `/getUploadDetails/${res.body.uploadID}?mode=numerical`, undefined, token)).body;
    const texts = details.results.ocrResults.map((f: { detections: { text: string }[] }) => norm(f.detections.map((d) => d.text).join(' ')));
    expect(texts[0]).toContain('First board');
    expect(texts[1]).toContain('Second board');
    expect(texts[2]).toContain('Third board');
  });
});

describe('bad media', () => {
  it('refuses a text file named .mp4 at uploadComplete with a clear reason and gives the credits back', async () => {
    const { token } = await stack.signUp();
    const before = await credits(token);
    const fake = path.join(dir, 'notes.mp4');
    await writeFile(fake, 'these are my meeting notes, not a video\n'.repeat(20));
    const uploadID = await uploadVideo(token, fake, { uploadName: 'Not a video', duration: 30, targetFrameRate: 1 / 15 });
    const res = await stack.api('POST', '/uploadComplete', { uploadID }, token);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/not a video/i);
    await expect.poll(() => credits(token), { timeout: 10_000 }).toBe(before);
  });

  it('fails an upload whose file has no video track, with a reason a person can read, and releases its credits', async () => {
    const { token } = await stack.signUp();
    const before = await credits(token);
    const audio = path.join(dir, 'audio-only.mp4');
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', '-c:a', 'aac', audio]);
    const uploadID = await uploadVideo(token, audio, { uploadName: 'Just sound', duration: 5, targetFrameRate: 1 });
    expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);
    const { final } = await follow(token, uploadID);
    expect(final.status).toBe('failed');
    expect(final.failureReason).toMatch(/video/i);
    await expect.poll(() => credits(token), { timeout: 10_000 }).toBe(before);
  });
});
