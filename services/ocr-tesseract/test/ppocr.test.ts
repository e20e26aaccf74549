import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpeg } from '@frametext/sample-media';
import { CORPUS_DIR } from '../bench/corpus.js';
import { configSchema } from '../src/config.js';
import { ctcGreedy } from '../src/domain/ppocr/ctc.js';
import { detectionSize, textRegions } from '../src/domain/ppocr/detect.js';
import { readsWithPpOcr } from '../src/domain/ppocr/languages.js';
import { linesOf, PpOcrReader } from '../src/domain/ppocr/reader.js';
import { FrameUnreadableError } from '../src/domain/preprocess.js';
import { UploadReader } from '../src/domain/upload-reader.js';
import { recognizeOptions, tesseractPool } from '../src/service.js';

const config = configSchema.parse({ OCR_CONCURRENCY: '1' });
const pool = tesseractPool(config);
const reader = new PpOcrReader({ maxPixels: config.OCR_MAX_PIXELS }, (job, beforeRead) => pool.runInLane(job, beforeRead));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ppocr-'));
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

/** The frame of bench/corpus/subtitles/rapidvideocr-2.mp4 (1920×800, Chinese subtitles over an animated film) at `t` s. */
async function realFrame(t: number): Promise<Buffer> {
  const file = join(dir, `frame-${t}.jpg`);
  await ffmpeg(['-ss', String(t), '-i', join(CORPUS_DIR, 'subtitles', 'rapidvideocr-2.mp4'), '-frames:v', '1', '-q:v', '2', file]);
  return readFile(file);
}

describe('PP-OCR reading Chinese subtitles', () => {
  // The published subtitles (RapidVideOCR's assets/test_video/2.srt) and a time each is on screen.
  it.each([
    [0.25, '空间里面他绝对赢不了的'],
    [0.75, '我进去帮他'],
    [2.0, '你们接着善后'],
  ])('reads the real frame at %s s as its published line', async (t, line) => {
    const text = await reader.read(await realFrame(t));
    const caption = text.detections.find((d) => d.text === line);
    expect(caption, JSON.stringify(text.detections.map((d) => d.text))).toBeDefined();
    // Boxed where the subtitle is: centred, in the frame's bottom quarter.
    const [topLeft, , bottomRight] = caption!.vertices;
    expect(topLeft!.y).toBeGreaterThan(600);
    expect(bottomRight!.y).toBeLessThan(800);
    expect((topLeft!.x + bottomRight!.x) / 2).toBeGreaterThan(860);
    expect((topLeft!.x + bottomRight!.x) / 2).toBeLessThan(1060);
    expect(caption!.confidence).toBeGreaterThan(90);
    expect(caption!.words?.map((w) => w.text).join('')).toBe(line);
    expect(text.imageWidth).toBe(1920);
  });

  it('reads Chinese captions through the Basic engine, and leaves English and other modes to Tesseract', async () => {
    const upload = new UploadReader(recognizeOptions(config), (image, lang, budget, beforeRead) => pool.read(image, lang, budget, beforeRead), reader);
    const frame = realFrame(2.0);
    const chinese = await upload.read(frame, { uploadId: 'zh', mediaContent: 'captions', originalLanguage: 'zh-CN', model: 'chi_sim', fromVideo: true });
    expect(chinese.detections.map((d) => d.text)).toContain('你们接着善后');
    expect(chinese.passes).toEqual([]);
    const english = await upload.read(frame, { uploadId: 'en', mediaContent: 'captions', originalLanguage: 'en', model: 'eng', fromVideo: true });
    expect(english.passes.length).toBeGreaterThan(0);
    expect(readsWithPpOcr('zh-CN', 'captions')).toBe(true);
    expect(readsWithPpOcr('zh-TW', 'captions')).toBe(true);
    expect(readsWithPpOcr('zh-CN', 'numerical')).toBe(false);
    expect(readsWithPpOcr('ja', 'captions')).toBe(false);
    expect(readsWithPpOcr(null, 'captions')).toBe(false);
  });

  it('fails a frame that is not an image as unreadable', async () => {
    await expect(reader.read(Buffer.from('not an image'))).rejects.toBeInstanceOf(FrameUnreadableError);
  });

  it('stops a frame whose CPU budget is spent, and a frame whose upload was deleted before its turn', async () => {
    const { CpuBudget } = await import('../src/data/cpu-budget.js');
    const spent = new CpuBudget(100);
    spent.spend(100);
    await expect(reader.read(await realFrame(2.0), spent)).rejects.toMatchObject({ kind: 'budget' });
    await expect(
      reader.read(await realFrame(2.0), undefined, async () => {
        throw new Error('deleted');
      }),
    ).rejects.toThrow('deleted');
  });
});

describe('PP-OCR post-processing', () => {
  it('sizes the detector input to multiples of 32, the longer side at most 960', () => {
    expect(detectionSize(1920, 800)).toEqual({ width: 960, height: 416 });
    expect(detectionSize(640, 360)).toEqual({ width: 640, height: 352 });
  });

  it('finds text regions in a probability map, grown by the DB margin, in frame pixels', () => {
    const width = 40;
    const height = 20;
    const map = new Float32Array(width * height);
    // A 20 × 4 region of sure text, and a speck.
    for (let y = 8; y < 12; y++) for (let x = 10; x < 30; x++) map[y * width + x] = 0.9;
    map[2 * width + 2] = 0.9;
    const regions = textRegions(map, width, height, 80, 40);
    expect(regions).toHaveLength(1);
    const margin = (20 * 4 * 1.5) / (2 * 24);
    expect(regions[0]).toMatchObject({ left: Math.floor((10 - margin) * 2), top: Math.floor((8 - margin) * 2), score: expect.closeTo(0.9, 5) });
    expect(regions[0]!.left + regions[0]!.width).toBe(Math.ceil((30 + margin) * 2));
  });

  it('decodes CTC output: repeats merged, blanks dropped', () => {
    const dictionary = ['你', '好', ' '];
    // Steps: 你 你 blank 你 好 blank
    const best = [1, 1, 0, 1, 2, 0];
    const output = new Float32Array(best.length * 4);
    best.forEach((c, t) => (output[t * 4 + c] = 0.9));
    expect(ctcGreedy(output, 0, best.length, 4, dictionary).map((c) => [c.char, c.step])).toEqual([
      ['你', 0],
      ['你', 3],
      ['好', 4],
    ]);
  });

  it('joins regions of one row into a line, up to a gap of 1.5 heights', () => {
    const region = (left: number, top: number, width: number) => ({ left, top, width, height: 40, score: 0.8 });
    const lines = linesOf([region(300, 500, 100), region(100, 500, 150), region(420, 505, 20), region(600, 500, 100), region(100, 600, 200)]);
    expect(lines.map((l) => [l.left, l.top, l.width])).toEqual([
      [100, 500, 340],
      [600, 500, 100],
      [100, 600, 200],
    ]);
  });
});
