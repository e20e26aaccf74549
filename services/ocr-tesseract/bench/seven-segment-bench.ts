import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuBudget } from '@frametext/service-kit';
import { anchorRead, makeSevenSegmentFrames, type SegmentFrame } from '@frametext/sample-media';
import { configSchema, tesseractEnv } from '../src/config.js';
import { prepareFrame } from '../src/domain/preprocess.js';
import { readSevenSegment } from '../src/domain/seven-segment.js';
import { parseTsv } from '../src/domain/tsv.js';
import { tesseractPool, uploadReader } from '../src/service.js';

/** Digit heights (at 720p) the figures are split by. */
export function sizeClass(digitHeight: number): 'small' | 'medium' | 'large' {
  return digitHeight < 50 ? 'small' : digitHeight < 80 ? 'medium' : 'large';
}

export interface SegmentTally {
  found: number;
  total: number;
}

export interface SegmentReaderFigures {
  seconds: number;
  msPerFrame: number;
  accuracy: number;
  /** Values read exactly, by display style (red, green, cyan, amber, lcd) and by digit size. */
  byStyle: Record<string, SegmentTally>;
  bySize: Record<string, SegmentTally>;
  /** Number-like words read that no display shows (misreadings and phantoms). */
  wrongNumbers: number;
}

export interface SevenSegmentBenchFigures {
  frames: number;
  scenes: number[];
  values: number;
  /** CPU time of the segment reader alone per frame (one thread; what it adds to each numerical frame). */
  readerCpuMsPerFrame: number;
  /** The segment reader alone, without Tesseract (its time is CPU time, one thread). */
  reader: SegmentReaderFigures;
  bare: SegmentReaderFigures;
  pipeline: SegmentReaderFigures;
}

/** A value counts when one word of the text is exactly it (`-3.2`, `12.05`, `14:37`); a trailing comma or full stop is allowed. */
export function wordsOf(text: string): Set<string> {
  return new Set(text.split(/\s+/).map((w) => w.replace(/[,;]$/, '')).filter(Boolean));
}

const NUMBERISH = /^-?[0-9][0-9.:]*$/;

function tally(frames: SegmentFrame[], texts: string[], seconds: number): SegmentReaderFigures {
  const byStyle: Record<string, SegmentTally> = {};
  const bySize: Record<string, SegmentTally> = {};
  let found = 0;
  let total = 0;
  let wrongNumbers = 0;
  frames.forEach((f, i) => {
    const words = wordsOf(texts[i]!);
    f.displays.forEach((d, j) => {
      const hit = words.has(f.values[j]!) ? 1 : 0;
      for (const [table, key] of [[byStyle, d.style], [bySize, sizeClass(d.digitHeight)]] as const) {
        table[key] ??= { found: 0, total: 0 };
        table[key].found += hit;
        table[key].total++;
      }
      found += hit;
      total++;
    });
    wrongNumbers += [...words].filter((w) => NUMBERISH.test(w) && !f.values.includes(w)).length;
  });
  const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  return { seconds: round(seconds, 2), msPerFrame: round((seconds * 1000) / frames.length, 1), accuracy: round(total ? found / total : 0, 3), byStyle, bySize, wrongNumbers };
}

/**
 * Seven-segment displays (five or six a frame, of every style, 30-110 px digits, with labels and units), on
 * scenes none of which the reader was tuned on: bare `tesseract` on every core against our recognizer, the same
 * frames, each scene read as one upload, exact values.
 */
export async function runSevenSegmentBench(opts: { scenes?: number[]; framesPerScene?: number; concurrency?: number; log?: (line: string) => void } = {}): Promise<SevenSegmentBenchFigures> {
  // Scenes 501-506 were never looked at while the reader was built (its rules were worked out on 1-6, 101-110,
  // 201-206 and 301-303).
  const log = opts.log ?? (() => undefined);
  const scenes = opts.scenes ?? [501, 502, 503, 504, 505, 506];
  const config = configSchema.parse({ OCR_CONCURRENCY: String(opts.concurrency ?? cpuBudget()) });
  const dir = await mkdtemp(join(tmpdir(), 'seven-segment-bench-'));
  try {
    const frames: SegmentFrame[] = [];
    const sceneOf: number[] = [];
    for (const seed of scenes) {
      const made = await makeSevenSegmentFrames({ dir, seed, count: opts.framesPerScene ?? 10 });
      frames.push(...made);
      sceneOf.push(...made.map(() => seed));
    }
    const values = frames.reduce((n, f) => n + f.values.length, 0);
    log(`${frames.length} seven-segment frames, ${values} values`);

    const anchor = await anchorRead(frames.map((f) => f.path), { env: tesseractEnv(), format: 'tsv' });
    const bare = tally(frames, anchor.texts.map((t) => parseTsv(t).flatMap((l) => l.words.map((w) => w.text)).join(' ')), anchor.seconds);
    log(`bare tesseract: ${bare.msPerFrame} ms/frame, accuracy ${bare.accuracy}`);

    const pool = tesseractPool(config);
    const options = { whiteMask: config.OCR_WHITE_MASK, whiteThreshold: config.OCR_WHITE_THRESHOLD, minWordConfidence: config.OCR_MIN_WORD_CONFIDENCE, maxPixels: config.OCR_MAX_PIXELS };
    // Each scene's frames are read as one upload's, as the worker reads a meter's photos or video (uploadReader).
    const upload = uploadReader(config, pool);
    const texts: string[] = [];
    const t0 = performance.now();
    await Promise.all(
      frames.map(async (f, i) => {
        const text = await upload.read(readFile(f.path), { uploadId: `scene-${sceneOf[i]}`, mediaContent: 'numerical', originalLanguage: null, model: config.OCR_LANG });
        texts[i] = text.words.map((w) => w.text).join(' ');
      }),
    );
    const pipeline = tally(frames, texts, (performance.now() - t0) / 1000);
    log(`pipeline: ${pipeline.msPerFrame} ms/frame, accuracy ${pipeline.accuracy}`);
    await pool.close();

    let cpu = 0;
    const alone: string[] = [];
    for (const f of frames) {
      const frame = await prepareFrame(await readFile(f.path), options);
      const before = process.cpuUsage();
      const words = readSevenSegment({ width: frame.width, height: frame.height, bright: frame.brightPixels, grey: frame.greyPixels });
      const used = process.cpuUsage(before);
      cpu += (used.user + used.system) / 1000;
      alone.push(words.map((w) => w.text).join(' '));
    }
    const reader = tally(frames, alone, cpu / 1000);
    return { frames: frames.length, scenes, values, readerCpuMsPerFrame: reader.msPerFrame, reader, bare, pipeline };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pct = (t: { found: number; total: number } | number) => `${((typeof t === 'number' ? t : t.total ? t.found / t.total : 0) * 100).toFixed(1)}%`;

/** The bench's figures as lines for `npm run bench`. */
export function printSevenSegmentBench(f: SevenSegmentBenchFigures, print: (line: string) => void = console.log): void {
  print(`\nSeven-segment displays vs bare tesseract, same ${f.frames} frames (scenes ${f.scenes.join(', ')}), ${f.values} values`);
  print(`    time        ours ${f.pipeline.msPerFrame} ms/frame   bare ${f.bare.msPerFrame} ms/frame (wall clock, every core)`);
  print(`    reader      ${f.readerCpuMsPerFrame} ms CPU per frame (the segment reader alone, one thread)`);
  print(`    exact       ours ${pct(f.pipeline.accuracy)}   bare ${pct(f.bare.accuracy)} (target ours >= 90%)`);
  for (const key of [...Object.keys(f.pipeline.byStyle).sort(), ...['small', 'medium', 'large'].filter((k) => f.pipeline.bySize[k])]) {
    const ours = f.pipeline.byStyle[key] ?? f.pipeline.bySize[key]!;
    const bare = f.bare.byStyle[key] ?? f.bare.bySize[key]!;
    print(`    ${key.padEnd(11)} ours ${pct(ours)} of ${ours.total}   bare ${pct(bare)}`);
  }
  print(`    numbers read that no display shows: ours ${f.pipeline.wrongNumbers}   bare ${f.bare.wrongNumbers}`);
  print(`    the segment reader alone: ${pct(f.reader.accuracy)} exact, ${f.reader.wrongNumbers} numbers no display shows`);
}
