import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import { FrameMemories } from '../src/domain/frame-memory.js';
import { FrameUnreadableError } from '../src/domain/preprocess.js';
import { maskVerdicts, preferMask, readingOrder, readsPaper, recognizeFrame, strayCharacters, withSegmentWords, type Candidate, type RecognizeOptions } from '../src/domain/recognize.js';
import type { TsvWord } from '../src/domain/tsv.js';
import { anchorExtract } from '@frametext/sample-media';
import { CORPUS_DIR } from '../bench/corpus.js';
import { tesseractPool } from '../src/service.js';
import { makeFrame } from './fixtures.js';

const config = configSchema.parse({});
const pool = tesseractPool(config);
const read = (pgm: Buffer) => pool.read(pgm);
const options = (whiteMask: RecognizeOptions['whiteMask']): RecognizeOptions => ({ whiteMask, whiteThreshold: 200, minWordConfidence: 30, maxPixels: 50_000_000 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocr-recognize-'));
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a person reads off a frame: its lines in order, line breaks and runs of spaces as one space. */
const textOf = (text: { detections: { text: string }[] }) => text.detections.map((d) => d.text).join(' ').replace(/\s+/g, ' ');

describe('recognizeFrame on screens nobody here made (bench/corpus)', () => {
  const corpusFile = (path: string) => readFile(join(CORPUS_DIR, path));

  it('reads a two-column page down its first column, then its second (a screenshot from normcap)', async () => {
    const text = textOf(await recognizeFrame(await corpusFile('screens/normcap-two-columns.png'), options('auto'), read, 'presentation'));
    expect(text).toContain('Optical character recognition or optical character reader (OCR) is the electronic or mechanical conversion of images');
    expect(text).toContain('Early versions needed to be trained with images of each character');
  });

  it('reads grey labels on a dark gradient menu, where the white mask has only the highlighted one (a TV menu from stb-tester)', async () => {
    const text = textOf(await recognizeFrame(await corpusFile('screens/stbt-summary-buttons.png'), options('auto'), read, 'numerical'));
    for (const label of ['Summary', 'Details', 'More Episodes']) expect(text).toContain(label);
  });

  it('keeps a table header on a screenshot whose font smoothing is coloured (a bank statement from tesseract.js)', async () => {
    const text = textOf(await recognizeFrame(await corpusFile('screens/tesseractjs-bank-statement.png'), options('auto'), read, 'numerical'));
    expect(text).toContain('Date Description Number Debits Credits Balance');
    expect(text).toContain('01Aug2018 Clearing Cheque 4987 36.07 99,914.15');
  });
});

describe('recognizeFrame on a small video nobody here made', () => {
  it('reads a 240p clip\'s subtitle enlarged, and boxes it in the frame\'s own pixels (an MDN clip, libass subtitles)', async () => {
    const { files } = await anchorExtract(join(CORPUS_DIR, 'subtitles/mdn-rabbit.mp4'), 1, join(dir, 'rabbit'));
    const text = await recognizeFrame(await readFile(files[3]!), options('auto'), read, 'captions', { fromVideo: true });
    expect(textOf(text)).toContain('This is the first subtitle.');
    expect([text.imageWidth, text.imageHeight]).toEqual([320, 240]);
    const line = text.detections.find((d) => d.text.includes('first subtitle'))!;
    const xs = line.vertices.map((v) => v.x);
    const ys = line.vertices.map((v) => v.y);
    // The subtitle sits centred at the bottom of the 320x240 frame.
    expect(Math.min(...ys)).toBeGreaterThan(200);
    expect(Math.max(...ys)).toBeLessThanOrEqual(240);
    expect(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - 160)).toBeLessThan(20);
  });
});

describe('recognizeFrame with the real tesseract', () => {
  it('reads dark text and numbers on a light screen, with boxes where they were drawn', async () => {
    const path = join(dir, 'plain.jpg');
    await makeFrame(path, {
      width: 640,
      height: 360,
      background: 'white',
      texts: [
        { text: 'Battery 85 pct', x: 40, y: 40, size: 40, color: 'black' },
        { text: '42.7 kW', x: 320, y: 250, size: 48, color: 'black' },
      ],
    });
    const result = await recognizeFrame(await readFile(path), options('auto'), read, 'numerical');
    expect(result.imageWidth).toBe(640);
    expect(result.imageHeight).toBe(360);
    expect(result.passes).toEqual(['bare']);
    const texts = result.detections.map((d) => d.text);
    expect(texts).toContain('Battery 85 pct');
    expect(texts).toContain('42.7 kW');
    const kw = result.detections.find((d) => d.text === '42.7 kW')!;
    const [tl, tr, br, bl] = kw.vertices;
    expect(tl!.x).toBeGreaterThanOrEqual(315);
    expect(tl!.x).toBeLessThan(340);
    expect(tl!.y).toBeGreaterThanOrEqual(245);
    expect(tl!.y).toBeLessThan(275);
    expect(tr!.x).toBeGreaterThan(tl!.x);
    expect(br!.y).toBeGreaterThan(tr!.y);
    expect(bl!.x).toBe(tl!.x);
    expect(kw.area).toBe((tr!.x - tl!.x) * (bl!.y - tl!.y));
    expect(kw.blockType).toBe('LINE');
    expect(kw.confidence).toBeGreaterThan(50);
    expect(kw.words?.map((w) => w.text)).toEqual(['42.7', 'kW']);
    expect(result.words.length).toBeGreaterThanOrEqual(4);
  });

  it('reads red text on a green panel of the same brightness, as bare Tesseract does (the bare pass gets the colours)', async () => {
    const path = join(dir, 'red-on-green.jpg');
    // Equal luminance: a grey copy of this frame is blank, but Tesseract thresholds the colour channels itself.
    await makeFrame(path, { width: 640, height: 240, background: '0x004a00', texts: [{ text: 'Pressure 42.7 bar', x: 40, y: 90, size: 48, color: '0xff0000' }] });
    const result = await recognizeFrame(await readFile(path), options('auto'), read, 'numerical');
    expect(result.detections.map((d) => d.text)).toContain('Pressure 42.7 bar');
  });

  it('reports what the segment reader read before Tesseract reads the frame, so frames waiting on its verdict need not wait for the passes', async () => {
    const path = join(dir, 'segments-first.jpg');
    await makeFrame(path, { width: 640, height: 240, background: 'white', texts: [{ text: 'Pressure 42.7 bar', x: 40, y: 90, size: 48, color: 'black' }] });
    const order: string[] = [];
    const reading = (pgm: Buffer) => {
      order.push('tesseract');
      return read(pgm);
    };
    await recognizeFrame(await readFile(path), options('auto'), reading, 'numerical', { readSegments: true, segmentsRead: (values) => order.push(`segments ${values}`) });
    expect(order[0]).toBe('segments 0');
    expect(order.filter((o) => o.startsWith('segments'))).toHaveLength(1);
  });

  it('keeps a label and its value far to the right apart, as two detections', async () => {
    const path = join(dir, 'dashboard.jpg');
    await makeFrame(path, {
      width: 1280,
      height: 360,
      background: 'white',
      texts: [
        { text: 'Power', x: 80, y: 120, size: 48, color: 'black' },
        { text: '145 kW', x: 420, y: 100, size: 88, color: 'black' },
      ],
    });
    const result = await recognizeFrame(await readFile(path), options('never'), read, 'numerical');
    // Case aside (Tesseract may read "kw"), each is a detection of its own.
    const texts = result.detections.map((d) => d.text.toLowerCase());
    expect(texts).toContain('power');
    expect(texts).toContain('145 kw');
  });

  it('finds white captions over a busy picture with the white-mask pass, which the bare pass misses, and adds none of its texture', async () => {
    const frames = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const path = join(dir, `busy-${i}.jpg`);
        const caption = ['HOTEL 512 km', 'KILO 733 km', 'ZULU 908 km'][i]!;
        await makeFrame(path, { width: 960, height: 540, background: 'busy', at: 8 + i * 4, texts: [{ text: caption, x: 240, y: 400, size: 48, color: 'white' }, { text: String(4100 + i), x: 300, y: 220, size: 52, color: 'white' }] });
        return { image: await readFile(path), truth: [...caption.split(' ').slice(0, 2), String(4100 + i)] };
      }),
    );
    let bareFound = 0;
    let ourFound = 0;
    for (const f of frames) {
      const bare = await recognizeFrame(f.image, options('never'), read);
      const ours = await recognizeFrame(f.image, options('auto'), read, 'captions');
      // Over a picture the mask pass reads the white text; the bare pass runs too, but what it makes of the texture
      // is not sure enough to be kept.
      expect(ours.passes).toEqual(['mask', 'bare']);
      const maskAlone = await recognizeFrame(f.image, options('auto'), read, 'captions', { readBare: () => false });
      expect(maskAlone.passes).toEqual(['mask']);
      expect(ours.detections.map((d) => d.text)).toEqual(maskAlone.detections.map((d) => d.text));
      const has = (text: string[], v: string) => text.join(' ').split(/\s+/).includes(v);
      bareFound += f.truth.filter((v) => has(bare.detections.map((d) => d.text), v)).length;
      ourFound += f.truth.filter((v) => has(ours.detections.map((d) => d.text), v)).length;
      // The two passes' readings are merged: no value shows up twice.
      for (const v of f.truth) expect(ours.words.filter((w) => w.text === v).length).toBeLessThanOrEqual(1);
    }
    expect(bareFound).toBeLessThan(5);
    expect(ourFound).toBeGreaterThanOrEqual(8);
  });

  it('reads again only what changed since the last frame of the upload, and carries the rest over', async () => {
    const dashboard = async (name: string, label: string, value: string) => {
      const path = join(dir, `${name}.jpg`);
      await makeFrame(path, {
        width: 1280,
        height: 360,
        background: '0x101820',
        texts: [
          { text: 'DC FAST CHARGER', x: 80, y: 40, size: 44, color: '0x9fd3ff' },
          { text: label, x: 80, y: 200, size: 40, color: '0xbbbbbb' },
          { text: value, x: 600, y: 190, size: 60, color: 'white' },
        ],
      });
      return readFile(path);
    };
    const memories = new FrameMemories<Candidate>();
    const next = async (image: Buffer) => {
      const result = await recognizeFrame(image, options('auto'), read, 'numerical', { memory: memories.of('upload-1') });
      return { passes: result.passes, texts: result.detections.map((d) => d.text) };
    };
    // The first frame: both passes.
    const first = await next(await dashboard('d1', 'Power', '61.5'));
    expect(first.passes).toEqual(['mask', 'bare']);
    expect(first.texts).toEqual(expect.arrayContaining(['DC FAST CHARGER', 'Power', '61.5']));
    // Only the white value changed, and the mask pass read it: the title and the label are carried over.
    const second = await next(await dashboard('d2', 'Power', '61.4'));
    expect(second.passes).toEqual(['mask']);
    expect(second.texts).toEqual(expect.arrayContaining(['DC FAST CHARGER', 'Power', '61.4']));
    expect(second.texts).not.toContain('61.5');
    // The grey label changed too, which the mask cannot read: that part is read again, and the old label is gone.
    const third = await next(await dashboard('d3', 'Energy', '61.3'));
    expect(third.passes).toEqual(['mask', 'bare']);
    expect(third.texts).toEqual(expect.arrayContaining(['DC FAST CHARGER', 'Energy', '61.3']));
    expect(third.texts).not.toContain('Power');
    // Where the upload's gate found that the mask pass does not pay, the bare pass alone reads what changed.
    const fourth = await recognizeFrame(await dashboard('d4', 'Energy', '61.2'), options('auto'), read, 'numerical', { memory: memories.of('upload-1'), readMask: () => false });
    expect(fourth.passes).toEqual(['bare']);
    expect(fourth.maskVerdicts).toBeUndefined();
    expect(fourth.detections.map((d) => d.text)).toEqual(expect.arrayContaining(['DC FAST CHARGER', 'Energy', '61.2']));
    expect(fourth.detections.map((d) => d.text)).not.toContain('61.3');
  });

  it('reads a dashboard\'s changing values in small crops stacked into one image, each put back where it changed, and keeps every other value', async () => {
    const dashboard = async (name: string, power: string, elapsed: string) => {
      const path = join(dir, `${name}.jpg`);
      await makeFrame(path, {
        width: 1280,
        height: 720,
        background: '0x101820',
        texts: [
          { text: 'Speed', x: 80, y: 120, size: 40, color: '0xbbbbbb' },
          { text: power, x: 420, y: 100, size: 80, color: 'white' },
          { text: 'Voltage', x: 80, y: 320, size: 40, color: '0xbbbbbb' },
          { text: '398 V', x: 420, y: 300, size: 80, color: 'white' },
          { text: 'Elapsed', x: 80, y: 520, size: 40, color: '0xbbbbbb' },
          { text: elapsed, x: 420, y: 500, size: 80, color: 'white' },
        ],
      });
      return readFile(path);
    };
    const sizes: number[] = [];
    const counting = (pgm: Buffer) => {
      const [, w, h] = /^P[56]\n(\d+) (\d+)\n/.exec(pgm.subarray(0, 32).toString('latin1'))!;
      sizes.push(Number(w) * Number(h));
      return read(pgm);
    };
    const memories = new FrameMemories<Candidate>();
    const next = async (image: Buffer) => (await recognizeFrame(image, options('auto'), counting, 'numerical', { memory: memories.of('upload-3') })).detections.map((d) => d.text);
    await next(await dashboard('e1', '1450 rpm', '12 min'));
    sizes.length = 0;
    // Speed and Elapsed change, far apart; the voltage between them does not.
    const second = await next(await dashboard('e2', '1460 rpm', '13 min'));
    expect(second).toEqual(expect.arrayContaining(['Speed', '1460 rpm', 'Voltage', '398 V', 'Elapsed', '13 min']));
    expect(second).not.toContain('1450 rpm');
    // One Tesseract image: the two changed rectangles stacked, a small part of the frame.
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeLessThan((1280 * 720) / 4);
  });

  it('reads a slide shown on several frames once', async () => {
    const path = join(dir, 'slide.jpg');
    await makeFrame(path, { width: 960, height: 540, background: 'white', texts: [{ text: 'Quarterly results', x: 60, y: 60, size: 52, color: 'black' }, { text: 'Revenue grew 12 percent', x: 60, y: 200, size: 36, color: 'black' }] });
    const image = await readFile(path);
    const memories = new FrameMemories<Candidate>();
    const first = await recognizeFrame(image, options('auto'), read, 'presentation', { memory: memories.of('upload-2') });
    const again = await recognizeFrame(image, options('auto'), read, 'presentation', { memory: memories.of('upload-2') });
    expect(first.passes).toEqual(['bare']);
    expect(again.passes).toEqual([]);
    expect(again.detections.map((d) => d.text)).toEqual(first.detections.map((d) => d.text));
    expect(again.detections.map((d) => d.text)).toContain('Revenue grew 12 percent');
  });

  it('refuses bytes that are not an image', async () => {
    await expect(recognizeFrame(Buffer.from('this is not a jpeg'), options('auto'), read)).rejects.toBeInstanceOf(FrameUnreadableError);
  });
});

describe('where both passes read the same spot', () => {
  const run = (texts: string[], left: number): Candidate => ({
    confidence: 80,
    words: texts.map((text, i) => ({ text, confidence: 80, box: { left: left + i * 60, top: 100, width: 50, height: 40 } })),
  });
  const texts = (runs: Candidate[]) => runs.map((r) => r.words.map((w) => w.text).join(' '));

  it('counts stray characters: symbols in any word, quotes inside a number, not units, signs or currencies', () => {
    expect(strayCharacters('37.2€ C')).toBe(0);
    expect(strayCharacters("00:00'05")).toBe(1);
    expect(strayCharacters('3790C¢ | ~')).toBe(3);
    expect(strayCharacters("-4,5% 36.5°C $12.50 don't (km/h)")).toBe(0);
  });

  it('keeps the mask reading unless it holds stray characters the bare reading of that spot does not, and keeps what only one pass read', () => {
    const mask = [run(['150', 'kW'], 100), run(['37.2¢'], 400), run(["00:00'05"], 700)];
    const bare = [run(['150', 'kw'], 100), run(['37.2C'], 400), run(["00:00'06"], 700), run(['Stirrer'], 1000)];
    expect(texts(preferMask(mask, bare))).toEqual(['150 kW', "00:00'05", '37.2C', 'Stirrer']);
  });

  it('keeps a bare reading of the same spot that is surer by 5 points or more, unless it differs only in case or spacing', () => {
    const sure = (c: Candidate, confidence: number): Candidate => ({ confidence, words: c.words.map((w) => ({ ...w, confidence })) });
    const mask = [sure(run(['4325', 'rpm'], 100), 85), sure(run(['150', 'kW'], 400), 90), sure(run(['$', '18.78'], 700), 80)];
    const bare = [sure(run(['425', 'rpm'], 100), 96), sure(run(['150', 'kw'], 400), 97), sure(run(['$18.78'], 700), 95)];
    expect(texts(preferMask(mask, bare))).toEqual(['150 kW', '$ 18.78', '425 rpm']);
  });

  it('keeps the mask reading of a value over a surer bare reading of only a part of it, and a bare reading with the decimal point the mask lost', () => {
    const sure = (c: Candidate, confidence: number): Candidate => ({ confidence, words: c.words.map((w) => ({ ...w, confidence })) });
    const mask = [sure(run(['131', 'kW'], 100), 85), sure(run(['369C'], 400), 89)];
    const bare = [sure(run(['kW'], 160), 96), sure(run(['36.9C'], 400), 73)];
    expect(texts(preferMask(mask, bare))).toEqual(['131 kW', '36.9C']);
  });

  it('counts the spots where the mask reading was kept over other characters or where only the mask read, and those where the bare reading won', () => {
    const sure = (c: Candidate, confidence: number): Candidate => ({ confidence, words: c.words.map((w) => ({ ...w, confidence })) });
    const mask = [run(['150', 'kW'], 100), sure(run(['4325', 'rpm'], 400), 85), run(['00:02'], 700), run(['36.6', 'C'], 1000), run(['Run'], 1300)];
    const bare = [run(['150', 'kw'], 100), sure(run(['425', 'rpm'], 400), 96), run(['36.6C'], 1000), run(['Run'], 1300)];
    // Won: `kW` over `kw`, and `00:02` that the bare pass did not read; lost: `425 rpm`; the same characters spaces aside are neither.
    expect(maskVerdicts(mask, bare)).toEqual({ gained: 2, lost: 1 });
  });
});

describe('what the engine keeps of its readings', () => {
  const word = (text: string, left: number, top: number, confidence = 95, block?: TsvWord['block']): TsvWord => ({ text, confidence, box: { left, top, width: 60, height: 30 }, block });
  const one = (w: TsvWord): Candidate => ({ words: [w], confidence: w.confidence });
  const texts = (runs: Candidate[]) => runs.map((r) => r.words.map((w) => w.text).join(' '));
  const display = (text: string, left: number, top: number) => ({ text, box: { left, top, width: 60, height: 30 }, confidence: 90 });

  it('orders a two-column page block by block: down the left column, then the right', () => {
    const left = { left: 0, top: 0, width: 200, height: 100 };
    const right = { left: 300, top: 0, width: 200, height: 100 };
    const runs = [word('a1', 0, 0, 95, left), word('b1', 300, 0, 95, right), word('a2', 0, 40, 95, left), word('b2', 300, 40, 95, right)].map(one);
    expect(texts(readingOrder(runs))).toEqual(['a1', 'a2', 'b1', 'b2']);
    // Without blocks (rectangles read in a stacked image), rows top to bottom.
    expect(texts(readingOrder(runs.map((r) => ({ ...r, words: r.words.map((w) => ({ ...w, block: undefined })) }))))).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('gives Tesseract\'s guesses at segment digits way to the value read, and keeps print the reader took for a display', () => {
    // `I2.O5` shows the digits of 12.05: Tesseract's guess at the display.
    expect(texts(withSegmentWords([one(word('I2.O5', 100, 100))], [display('12.05', 100, 100)]))).toEqual(['12.05']);
    // An unsure reading gives way too.
    expect(texts(withSegmentWords([one(word('1Z05', 100, 100, 40))], [display('12.05', 100, 100)]))).toEqual(['12.05']);
    // A page's `100`, surely read, shows other digits than the reader's `0.0`: print.
    expect(texts(withSegmentWords([one(word('100', 100, 100))], [display('0.0', 100, 100)]))).toEqual(['100']);
    // A sure `!` over an LCD's value holds no digit: a guess at the display, not print.
    expect(texts(withSegmentWords([one(word('!', 100, 100, 86))], [display('0.601', 100, 100)]))).toEqual(['0.601']);
    // A word no seven-segment display could show stays, however unsure Tesseract is of it.
    expect(texts(withSegmentWords([one(word('"Multilines"', 100, 100, 56))], [display('11', 100, 100)]))).toEqual(['"Multilines"']);
  });

  it('tells dark print on lit paper from white text by how much of the words\' boxes is near-white', () => {
    const width = 100;
    const mask = Buffer.alloc(width * 100, 255);
    // Near-white (0 in the mask) fills the paper around the first word, and only the strokes of the second.
    for (let y = 0; y < 40; y++) mask.fill(0, y * width, y * width + 100);
    for (let y = 60; y < 90; y += 3) mask.fill(0, y * width + 10, y * width + 40);
    const paper = { words: [{ text: 'TOTAL', confidence: 90, box: { left: 10, top: 5, width: 60, height: 30 } }], confidence: 90 };
    const whiteText = { words: [{ text: '22.4', confidence: 90, box: { left: 10, top: 60, width: 60, height: 30 } }], confidence: 90 };
    expect(readsPaper([paper], { width, maskPixels: mask })).toBe(true);
    expect(readsPaper([whiteText], { width, maskPixels: mask })).toBe(false);
  });
});
