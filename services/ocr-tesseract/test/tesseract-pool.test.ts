import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@frametext/service-kit/testing';
import { configSchema } from '../src/config.js';
import { TesseractError } from '../src/domain/tesseract.js';
import { TesseractPool } from '../src/domain/tesseract-pool.js';
import { parseTsv } from '../src/domain/tsv.js';
import { tesseractOptions } from '../src/service.js';
import { makeFrame } from './fixtures.js';

const tesseract = tesseractOptions(configSchema.parse({}));
const WORDS = ['ALPHA 101', 'BRAVO 202', 'CHARLIE 303', 'DELTA 404', 'ECHO 505', 'FOXTROT 606'];
const textOf = (tsv: string) => parseTsv(tsv).map((l) => l.words.map((w) => w.text).join(' ')).join(' | ');

let dir: string;
let images: Buffer[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-pool-'));
  images = await Promise.all(
    WORDS.map(async (text, i) => {
      const path = join(dir, `${i}.jpg`);
      await makeFrame(path, { width: 480, height: 160, background: 'white', texts: [{ text, x: 30, y: 50, size: 40, color: 'black' }] });
      return readFile(path);
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Tesseract pool', () => {
  it('reads many images with few processes, and gives each image its own text', async () => {
    const scratchDir = await mkdtemp(join(dir, 'scratch-'));
    const pool = new TesseractPool(tesseract, { lanes: 2, maxBatch: 4, windowMs: 20, scratchDir });
    const texts = await Promise.all(images.map((image) => pool.read(image)));
    texts.forEach((tsv, i) => expect(textOf(tsv)).toBe(WORDS[i]));
    expect(pool.counts).toEqual({ processes: 2, images: WORDS.length });
    // Each batch's folder is removed once it is read.
    await eventually(async () => (await readdir(scratchDir)).length === 0, 5_000, 20);
  });

  it('fails only the image Tesseract cannot read, not the others of its batch', async () => {
    const pool = new TesseractPool(tesseract, { lanes: 1, maxBatch: 8, windowMs: 20 });
    const broken = Buffer.from('P5\n480 160\n255\nnot enough pixels');
    const results = await Promise.allSettled([pool.read(images[0]!), pool.read(broken), pool.read(images[1]!)]);
    expect(results[0]).toMatchObject({ status: 'fulfilled' });
    expect(textOf((results[0] as PromiseFulfilledResult<string>).value)).toBe(WORDS[0]);
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(TesseractError);
    expect(textOf((results[2] as PromiseFulfilledResult<string>).value)).toBe(WORDS[1]);
  });

  it('reads images of different languages in different processes', async () => {
    const pool = new TesseractPool(tesseract, { lanes: 1, maxBatch: 8, windowMs: 20 });
    const [english, german] = await Promise.all([pool.read(images[2]!, 'eng'), pool.read(images[3]!, 'deu')]);
    expect(textOf(english!)).toBe(WORDS[2]);
    expect(textOf(german!)).toBe(WORDS[3]);
    expect(pool.counts.processes).toBe(2);
  });
});
