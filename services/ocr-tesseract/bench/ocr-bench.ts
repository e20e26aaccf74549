import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anchorRead, medianRound } from '@frametext/sample-media';
import { configSchema, tesseractEnv, type Config } from '../src/config.js';
import { cpuBudget } from '@frametext/service-kit';
import type { Pass } from '../src/domain/recognize.js';
import { parseTsv } from '../src/domain/tsv.js';
import { makeBusyFrames, type TruthFrame } from './frames.js';
import type { TesseractPool } from '../src/data/tesseract-pool.js';
import { tesseractPool, uploadReader } from '../src/service.js';

export interface ReaderFigures {
  seconds: number;
  framesPerSecond: number;
  /** Share of the frames' known values found in the text read (0-1). */
  accuracy: number;
  valuesFound: number;
  valuesTotal: number;
}

export interface OcrBenchFigures {
  frames: number;
  width: number;
  height: number;
  concurrency: number;
  /** The anchor: `tesseract <frame> stdout tsv`, one single-threaded process per core (sample-media's anchorRead). */
  bare: ReaderFigures;
  /** Our recognizer (decode, bare pass, mask pass when wanted, merge) with OCR_CONCURRENCY single-threaded processes. */
  pipeline: ReaderFigures & { maskPassShare: number; generateSeconds: number };
  /** pipeline frames/s over bare frames/s: the median of the rounds' ratios. */
  throughputRatio: number;
  /** Each round's ratio, in the order they ran. */
  ratios: number[];
}

export interface OcrBenchOptions {
  /** Frames to read; generated when not given (white captions and numbers over a moving fractal). */
  frames?: TruthFrame[];
  count?: number;
  width?: number;
  height?: number;
  concurrency?: number;
  /** Times the frames are read by each, bare then ours (3 by default; `npm run bench` takes sample-media's benchRounds). */
  rounds?: number;
  log?: (line: string) => void;
}

function tokens(text: string): Set<string> {
  return new Set(text.split(/\s+/).map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean));
}

function countFound(truth: string[], text: string): number {
  const seen = tokens(text);
  return truth.filter((v) => seen.has(v)).length;
}

function figures(seconds: number, frames: number, found: number, total: number): ReaderFigures {
  return { seconds: round(seconds, 2), framesPerSecond: round(frames / seconds, 2), accuracy: round(total ? found / total : 0, 3), valuesFound: found, valuesTotal: total };
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Measures, in one run over the same frames, bare `tesseract` on every core against our recognizer: frames per second
 * and the share of known values each finds, in rounds (each bare, then ours), the ratio being the median round's.
 * Nothing but Tesseract and ffmpeg is needed (no broker, no database).
 */
export async function runOcrBench(opts: OcrBenchOptions = {}): Promise<OcrBenchFigures> {
  const log = opts.log ?? (() => undefined);
  const config = configSchema.parse({ OCR_CONCURRENCY: String(opts.concurrency ?? cpuBudget()) });
  const dir = opts.frames ? undefined : await mkdtemp(join(tmpdir(), 'ocr-bench-'));
  try {
    const t0 = performance.now();
    const frames = opts.frames ?? (await makeBusyFrames({ dir: dir!, count: opts.count ?? 60, width: opts.width, height: opts.height }));
    const generateSeconds = (performance.now() - t0) / 1000;
    const total = frames.reduce((n, f) => n + f.truth.length, 0);
    log(`${frames.length} frames ready in ${generateSeconds.toFixed(1)} s; ${total} known values`);

    const pool = tesseractPool(config);
    const rounds: { bare: ReaderFigures; ours: Awaited<ReturnType<typeof readAsOneUpload>>; ratio: number }[] = [];
    for (let r = 1; r <= (opts.rounds ?? 3); r++) {
      const anchor = await anchorRead(frames.map((f) => f.path), { env: tesseractEnv(), format: 'tsv' });
      const bareFound = frames.reduce((n, f, i) => n + countFound(f.truth, parseTsv(anchor.texts[i]!).flatMap((l) => l.words.map((w) => w.text)).join(' ')), 0);
      const bare = figures(anchor.seconds, frames.length, bareFound, total);
      log(`round ${r}: bare tesseract, ${anchor.processes} processes: ${bare.framesPerSecond} frames/s, accuracy ${bare.accuracy}`);
      const ours = await readAsOneUpload(config, pool, frames, total, `bench-${r}`);
      log(`round ${r}: pipeline (${config.OCR_CONCURRENCY} workers): ${ours.framesPerSecond} frames/s, accuracy ${ours.accuracy}`);
      rounds.push({ bare, ours, ratio: round(bare.seconds / ours.seconds, 2) });
    }
    const ratios = rounds.map((r) => r.ratio);
    // The figures shown are the median round's; the accuracy is the lowest of any round.
    const { bare, ours, ratio: throughputRatio } = medianRound(rounds, (r) => r.ratio);
    const worst = rounds.map((r) => r.ours).reduce((a, b) => (b.accuracy < a.accuracy ? b : a));
    const { masked, width, height, ...timing } = ours;
    const pipeline = { ...timing, accuracy: worst.accuracy, valuesFound: worst.valuesFound, maskPassShare: round(masked / frames.length, 3), generateSeconds: round(generateSeconds, 1) };
    log(`throughput ratio pipeline / bare: ${throughputRatio} (rounds: ${ratios.join(', ')})`);
    await pool.close();
    return { frames: frames.length, width, height, concurrency: config.OCR_CONCURRENCY, bare, pipeline, throughputRatio, ratios };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Our recognizer on the frames, read as one upload's (`uploadId`), as the worker reads them: its gates decide which
 * steps each frame pays for. A new upload each round, so no round carries over another's readings.
 */
async function readAsOneUpload(config: Config, pool: TesseractPool, frames: TruthFrame[], total: number, uploadId: string) {
  const reader = uploadReader(config, pool);
  let found = 0;
  let masked = 0;
  let width = 0;
  let height = 0;
  const t0 = performance.now();
  await Promise.all(
    frames.map(async (f) => {
      const text = await reader.read(readFile(f.path), { uploadId, mediaContent: 'numerical', originalLanguage: null, model: config.OCR_LANG });
      found += countFound(f.truth, text.detections.map((d) => d.text).join(' '));
      if (text.passes.includes('mask' satisfies Pass)) masked++;
      width = text.imageWidth;
      height = text.imageHeight;
    }),
  );
  return { ...figures((performance.now() - t0) / 1000, frames.length, found, total), masked, width, height };
}
