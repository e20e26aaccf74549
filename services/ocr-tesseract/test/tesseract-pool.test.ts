import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@frametext/service-kit/testing';
import { configSchema } from '../src/config.js';
import { CpuBudget } from '../src/data/cpu-budget.js';
import { TesseractError } from '../src/data/tesseract.js';
import { TesseractPool } from '../src/data/tesseract-pool.js';
import { parseTsv } from '../src/domain/tsv.js';
import { tesseractOptions } from '../src/service.js';
import { makeFrame } from './fixtures.js';

const tesseract = tesseractOptions(configSchema.parse({}));
const WORDS = ['ALPHA 101', 'BRAVO 202', 'CHARLIE 303', 'DELTA 404', 'ECHO 505', 'FOXTROT 606'];
const textOf = (tsv: string) => parseTsv(tsv).map((l) => l.words.map((w) => w.text).join(' ')).join(' | ');
const failureOf = async (read: Promise<unknown>) => {
  const err = await read.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TesseractError);
  return err as TesseractError;
};

let dir: string;
let images: Buffer[];
const pools: TesseractPool[] = [];
const poolOf = (...args: ConstructorParameters<typeof TesseractPool>) => {
  const pool = new TesseractPool(...args);
  pools.push(pool);
  return pool;
};

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
  await Promise.all(pools.map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('the Tesseract pool', () => {
  it('reads every image with one process per lane, kept up between images that come apart, and gives each image its own text', async () => {
    const scratchDir = await mkdtemp(join(dir, 'scratch-'));
    const pool = poolOf(tesseract, { lanes: 2, scratchDir });
    const texts = await Promise.all(images.map((image) => pool.read(image)));
    texts.forEach((tsv, i) => expect(textOf(tsv)).toBe(WORDS[i]));
    // Later images, one at a time (each sent once the last is read, so the processes wait idle for it), are read by
    // the same processes.
    for (const image of images.slice(0, 3)) {
      expect(textOf(await pool.read(image))).toBe(WORDS[images.indexOf(image)]);
    }
    expect(pool.counts).toEqual({ processes: 2, images: WORDS.length + 3 });
    // Each image is removed once read; each process's folder once it has ended.
    const files = async () => (await Promise.all((await readdir(scratchDir)).map((d) => readdir(join(scratchDir, d))))).flat();
    await eventually(async () => (await files()).every((f) => f === 'blank.pgm'), 5_000, 20);
    await pool.close();
    await eventually(async () => (await readdir(scratchDir)).length === 0, 5_000, 20);
  });

  it('fails only the image Tesseract cannot read, and reads the next ones', async () => {
    const pool = poolOf(tesseract, { lanes: 1 });
    const broken = Buffer.from('P5\n480 160\n255\nnot enough pixels');
    const results = await Promise.allSettled([pool.read(images[0]!), pool.read(broken), pool.read(images[1]!)]);
    expect(textOf((results[0] as PromiseFulfilledResult<string>).value)).toBe(WORDS[0]);
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(TesseractError);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/cannot be read/);
    expect(textOf((results[2] as PromiseFulfilledResult<string>).value)).toBe(WORDS[1]);
  });

  it('reads images of different languages in different processes', async () => {
    const pool = poolOf(tesseract, { lanes: 1 });
    const [english, german] = await Promise.all([pool.read(images[2]!, 'eng'), pool.read(images[3]!, 'deu')]);
    expect(textOf(english!)).toBe(WORDS[2]);
    expect(textOf(german!)).toBe(WORDS[3]);
    expect(pool.counts.processes).toBe(2);
  });

  it('kills a read that passes its timeout, says so, and reads the next image in a new process', async () => {
    const pool = poolOf({ ...tesseract, timeoutMs: 10 }, { lanes: 1 });
    // A read that outran its timeout unkilled would end with its text, not a timeout.
    expect((await failureOf(pool.read(images[4]!))).kind).toBe('timeout');
    expect((await failureOf(pool.read(images[4]!))).kind).toBe('timeout');
    expect(pool.counts.processes).toBe(2);
  });

  it('stops a read whose output passes the limit', async () => {
    const pool = poolOf({ ...tesseract, maxOutputBytes: 200 }, { lanes: 1 });
    expect((await failureOf(pool.read(images[5]!))).kind).toBe('output-too-large');
  });

  it('reports a missing binary as missing', async () => {
    const pool = poolOf({ ...tesseract, binary: '/nonexistent/tesseract' }, { lanes: 1 });
    expect((await failureOf(pool.read(images[0]!))).kind).toBe('missing');
  });

  it("spends each read's CPU time from its frame's budget, stops the reads that spend the last of it, and reads nothing more of that frame", async () => {
    const pool = poolOf(tesseract, { lanes: 2 });
    const plain = new CpuBudget(60_000);
    expect(textOf(await pool.read(images[0]!, 'eng', plain))).toBe(WORDS[0]);
    expect(plain.spentMs).toBeGreaterThan(0);
    expect(plain.exhausted).toBe(false);

    // A page dense with print, far more than 300 ms of Tesseract's time.
    const path = join(dir, 'dense.jpg');
    const lines = Array.from({ length: 60 }, (_, i) => ({ text: `${i} ${WORDS.join(' ')} ${WORDS.join(' ')}`, x: 20, y: 40 + i * 36, size: 26, color: 'black' }));
    await makeFrame(path, { width: 2200, height: 2240, background: 'white', texts: lines });
    const dense = await readFile(path);
    // Two reads of one frame at once, in two lanes: the budget stops both.
    const budget = new CpuBudget(300);
    const failures = await Promise.all([failureOf(pool.read(dense, 'eng', budget)), failureOf(pool.read(dense, 'eng', budget))]);
    expect(failures.map((f) => f.kind)).toEqual(['budget', 'budget']);
    expect(budget.exhausted).toBe(true);
    const { images: read } = pool.counts;
    expect((await failureOf(pool.read(images[1]!, 'eng', budget))).kind).toBe('budget');
    expect(pool.counts.images).toBe(read);
    // Other frames are read as before, by a new process.
    expect(textOf(await pool.read(images[1]!, 'eng', new CpuBudget(60_000)))).toBe(WORDS[1]);
  });
});
