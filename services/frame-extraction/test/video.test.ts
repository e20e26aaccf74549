import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, makeSlidesVideo, type GeneratedVideo } from '@frametext/sample-media';
import { startHarness, ocrText, type Harness, type UploadEvent } from './helpers.js';

/** Tesseract sometimes spaces digits apart ("3 5%"); compare without whitespace. */
const squeeze = (s: string) => s.replace(/\s+/g, '');

let h: Harness;
let charger: GeneratedVideo;

beforeAll(async () => {
  h = await startHarness();
  charger = await makeChargerVideo({ dir: h.workDir, seconds: 20, width: 1280, height: 720 });
});
afterAll(async () => {
  await h?.stop();
});

async function uploadVideo(path: string, fields: Partial<UploadEvent>): Promise<string> {
  const uploadId = crypto.randomUUID();
  const key = `uploads/${uploadId}/source/video.mp4`;
  await h.putFile(key, path);
  return h.publishUpload({ kind: 'video', objectKeys: [key], uploadId, ...fields });
}

describe('video frames at an interval', () => {
  it('takes a 20 s video every 5 s at 0, 5, 10 and 15 s, each showing what was on screen then', async () => {
    const uploadId = await uploadVideo(charger.path, { intervalSeconds: 5, durationSeconds: 20 });
    const out = await h.outcome(uploadId);
    expect(out.failed).toBeUndefined();
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 5000, 10000, 15000]);
    expect(out.extracted!.durationSeconds).toBeCloseTo(20, 0);
    expect(out.extracted!.frames[2]).toEqual({
      frameIndex: 2,
      timestampMs: 10000,
      objectKey: `uploads/${uploadId}/frames/0000010000.jpg`,
      thumbnailKey: `uploads/${uploadId}/thumbs/0000010000.jpg`,
    });

    const frame = await h.storage.getBuffer(out.extracted!.frames[2]!.objectKey);
    const meta = await sharp(frame).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1280, 720]);
    const thumb = await sharp(await h.storage.getBuffer(out.extracted!.frames[2]!.thumbnailKey!)).metadata();
    expect(thumb.width).toBe(320);

    const text = await ocrText(frame);
    expect(squeeze(text)).toContain(squeeze(chargerValues(10).battery));
    expect(squeeze(text)).toContain(squeeze(chargerValues(10).power));
    const last = await ocrText(await h.storage.getBuffer(out.extracted!.frames[3]!.objectKey));
    expect(squeeze(last)).toContain(squeeze(chargerValues(15).battery));
  });

  it('asks for each frame\'s OCR as soon as it is stored, routed to the engine, then publishes frames.extracted', async () => {
    const uploadId = await uploadVideo(charger.path, { intervalSeconds: 5, mediaContent: 'numerical', originalLanguage: 'en' });
    const out = await h.outcome(uploadId);
    expect(out.order).toEqual([...Array(4).fill('ocr.requested.v1'), 'frames.extracted.v1']);
    expect(out.ocr.map((o) => o.routingKey)).toEqual(Array(4).fill('ocr.requested.v1.server'));
    expect(out.ocr.map((o) => [o.data.frameIndex, o.data.timestampMs])).toEqual([
      [0, 0],
      [1, 5000],
      [2, 10000],
      [3, 15000],
    ]);
    expect(out.ocr[1]!.data).toMatchObject({ objectKey: `uploads/${uploadId}/frames/0000005000.jpg`, engine: 'server', mediaContent: 'numerical', originalLanguage: 'en', userId: 'user-1', fromVideo: true });
  });

  it('takes sparse frames by seeking, with the same result', async () => {
    const uploadId = await uploadVideo(charger.path, { intervalSeconds: 10 });
    const out = await h.outcome(uploadId);
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 10000]);
    const text = await ocrText(await h.storage.getBuffer(out.extracted!.frames[1]!.objectKey));
    expect(squeeze(text)).toContain(squeeze(chargerValues(10).battery));
  });

  it('never takes more frames than were paid for', async () => {
    const uploadId = await uploadVideo(charger.path, { intervalSeconds: 5, maxFrames: 2 });
    const out = await h.outcome(uploadId);
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 5000]);
    expect(out.ocr).toHaveLength(2);
  });

  it('decodes a longer video in ranges side by side, one per core, and hands the same frames on in time order', async () => {
    const [one, three] = await Promise.all([startHarness({ WORKER_THREADS: '1' }), startHarness({ WORKER_THREADS: '3' })]);
    try {
      const run = async (harness: Harness) => {
        const uploadId = crypto.randomUUID();
        const key = `uploads/${uploadId}/source/video.mp4`;
        await harness.putFile(key, charger.path);
        await harness.publishUpload({ kind: 'video', objectKeys: [key], uploadId, intervalSeconds: 0.4 });
        const out = await harness.outcome(uploadId);
        const frames = await Promise.all(out.extracted!.frames.map((f) => harness.storage.getBuffer(f.objectKey)));
        return { out, frames };
      };
      const [whole, ranged] = [await run(one), await run(three)];
      const times = Array.from({ length: 50 }, (_, i) => i * 400);
      expect(ranged.out.extracted!.frames.map((f) => f.timestampMs)).toEqual(times);
      expect(ranged.out.ocr.map((o) => [o.data.frameIndex, o.data.timestampMs])).toEqual(times.map((t, i) => [i, t]));
      expect(ranged.out.order.at(-1)).toBe('frames.extracted.v1');
      // Three ffmpeg runs from three starting points store the very pictures one run from the start stores.
      expect(ranged.frames.map((f, i) => f.equals(whole.frames[i]!))).toEqual(Array(50).fill(true));
    } finally {
      await Promise.all([one.stop(), three.stop()]);
    }
  }, 120_000);

  it("trusts ffprobe over the client's duration", async () => {
    const uploadId = await uploadVideo(charger.path, { intervalSeconds: 5, durationSeconds: 60 });
    const out = await h.outcome(uploadId);
    expect(out.extracted!.framesTotal).toBe(4);
    expect(out.extracted!.durationSeconds).toBeCloseTo(20, 0);
  });
});

describe('slide detection', () => {
  it('gives one frame per slide, at the sample where each slide starts', async () => {
    const slides = await makeSlidesVideo({
      dir: h.workDir,
      slides: [['Quarterly review', 'Revenue grew'], ['Roadmap', 'Ship the pipeline'], ['Questions', 'Thank you']],
      secondsPerSlide: 4,
      width: 1280,
      height: 720,
    });
    const uploadId = await uploadVideo(slides.path, { mediaContent: 'presentation', slideDetection: true, intervalSeconds: 1 });
    const out = await h.outcome(uploadId);
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 4000, 8000]);
    expect(await ocrText(await h.storage.getBuffer(out.extracted!.frames[1]!.objectKey))).toContain('Roadmap');
  });

  it('stops at maxFrames slides', async () => {
    const slides = await makeSlidesVideo({ dir: h.workDir, name: 'slides-capped.mp4', slides: [['First slide', 'Some words here'], ['Second slide', 'Other words there'], ['Third slide', 'More words again']], secondsPerSlide: 4, width: 640, height: 360 });
    const uploadId = await uploadVideo(slides.path, { mediaContent: 'presentation', slideDetection: true, maxFrames: 2 });
    const out = await h.outcome(uploadId);
    expect(out.extracted!.frames.map((f) => f.timestampMs)).toEqual([0, 4000]);
  });
});

describe('bad videos fail the upload with a reason a person can read', () => {
  it('a text file named .mp4', async () => {
    const path = join(h.workDir, 'notes.mp4');
    await writeFile(path, 'these are my meeting notes, not a video\n'.repeat(20));
    const out = await h.outcome(await uploadVideo(path, { intervalSeconds: 5 }));
    expect(out.failed).toMatchObject({ stage: 'extraction', userId: 'user-1', reason: 'The video could not be read: the file is damaged or is not a video.' });
    expect(out.order).toEqual(['upload.failed.v1']);
  });

  it('an empty file', async () => {
    const path = join(h.workDir, 'empty.mp4');
    await writeFile(path, '');
    const out = await h.outcome(await uploadVideo(path, { intervalSeconds: 5 }));
    expect(out.failed?.reason).toBe('The video could not be read: the file is empty.');
  });

  it('an audio-only file', async () => {
    const path = join(h.workDir, 'sine.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'aac', path]);
    const out = await h.outcome(await uploadVideo(path, { intervalSeconds: 1 }));
    expect(out.failed?.reason).toBe('The video could not be read: it has no video track.');
  });

  it('a source that is no longer in storage', async () => {
    const uploadId = crypto.randomUUID();
    const out = await h.outcome(await h.publishUpload({ kind: 'video', uploadId, objectKeys: [`uploads/${uploadId}/source/video.mp4`], intervalSeconds: 5 }));
    expect(out.failed?.reason).toBe('The uploaded file is no longer in storage; it may have been deleted. Please upload it again.');
  });

  it('a video larger than the dimension limit, refused from ffprobe before decoding', async () => {
    const strict = await startHarness({ MAX_MEDIA_DIMENSION: '1000' });
    try {
      const uploadId = crypto.randomUUID();
      const key = `uploads/${uploadId}/source/video.mp4`;
      await strict.putFile(key, charger.path);
      const out = await strict.outcome(await strict.publishUpload({ kind: 'video', objectKeys: [key], uploadId, intervalSeconds: 5 }));
      expect(out.failed?.reason).toBe('The video is too large to process (1280 x 720 pixels); videos may be at most 1000 pixels a side.');
    } finally {
      await strict.stop();
    }
  });

  // The working folder's free space, all of it kept back: as when two large videos fill a pod's scratch volume.
  it('a video with no room to be copied for decoding, refused before any byte is copied', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'frametext-scratch-'));
    const full = await startHarness({ WORK_DIR: scratch, SCRATCH_RESERVE_BYTES: String(Number.MAX_SAFE_INTEGER) });
    try {
      const uploadId = crypto.randomUUID();
      const key = `uploads/${uploadId}/source/video.mp4`;
      await full.putFile(key, charger.path);
      const out = await full.outcome(await full.publishUpload({ kind: 'video', objectKeys: [key], uploadId, intervalSeconds: 5 }));
      expect(out.failed?.reason).toMatch(/^The video \(\d+(\.\d)? KB\) could not be processed: the server had only 0 B of working space free for it\. Please try again later\.$/);
      expect(out.order).toEqual(['upload.failed.v1']);
      expect(await readdir(scratch)).toEqual([]);
    } finally {
      await full.stop();
      await rm(scratch, { recursive: true, force: true });
    }
  });

  // A harness of its own starts, and the timed-out decode is given up through the bus: more than the default 30 s
  // when the machine is busy (once in CI).
  it('a video that takes longer than the ffmpeg timeout', async () => {
    const slow = await startHarness({ FFMPEG_TIMEOUT_MS: '150' });
    try {
      const uploadId = crypto.randomUUID();
      const key = `uploads/${uploadId}/source/video.mp4`;
      await slow.putFile(key, charger.path);
      const out = await slow.outcome(await slow.publishUpload({ kind: 'video', objectKeys: [key], uploadId, intervalSeconds: 0.5 }));
      expect(out.failed?.reason).toMatch(/^The video could not be read: decoding it took longer than \d+ seconds\.$/);
    } finally {
      await slow.stop();
    }
  }, 60_000);
});
