import { spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ffmpeg } from './ffmpeg.js';

/**
 * The benchmarks' anchor: bare Tesseract as a capable person scripts it on the same machine. ffmpeg's fps filter
 * writes the frames, then one `tesseract` process per core reads them, each single-threaded (OMP_THREAD_LIMIT=1,
 * which is faster in total than Tesseract's own threads when every core already has a process), default settings.
 * FrameText's throughput is quoted as a ratio to this.
 */

export interface AnchorFrames {
  /** Frame files in time order: frame i shows the video at i * intervalSeconds. */
  files: string[];
  seconds: number;
}

/** ffmpeg's fps filter: one PNG per interval into `dir`, timed. */
export async function anchorExtract(videoPath: string, intervalSeconds: number, dir: string): Promise<AnchorFrames> {
  await mkdir(dir, { recursive: true });
  const t0 = performance.now();
  await ffmpeg(['-i', videoPath, '-vf', `fps=1/${intervalSeconds}`, '-start_number', '0', join(dir, '%05d.png')]);
  const seconds = (performance.now() - t0) / 1000;
  const files = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort().map((f) => join(dir, f));
  return { files, seconds };
}

export interface AnchorReading {
  /** Tesseract's output for each file, in the files' order. */
  texts: string[];
  seconds: number;
  processes: number;
}

export interface AnchorReadOptions {
  /** The environment `tesseract` runs in (PATH, TESSDATA_PREFIX); OMP_THREAD_LIMIT=1 is added. */
  env: Record<string, string | undefined>;
  format?: 'txt' | 'tsv';
  processes?: number;
  /** The Tesseract model (`-l`); Tesseract's own default (eng) when unset. */
  lang?: string;
}

/** Reads every file with a bare `tesseract` (plain text, or `tsv`), one process per core at a time, timed. */
export async function anchorRead(files: string[], opts: AnchorReadOptions): Promise<AnchorReading> {
  const processes = opts.processes ?? availableParallelism();
  const texts: string[] = new Array<string>(files.length);
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      texts[i] = await bareTesseract(files[i]!, opts.format ?? 'txt', opts.lang, { ...opts.env, OMP_THREAD_LIMIT: '1' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(processes, files.length) }, lane));
  return { texts, seconds: (performance.now() - t0) / 1000, processes };
}

function bareTesseract(file: string, format: 'txt' | 'tsv', lang: string | undefined, env: Record<string, string | undefined>): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [file, 'stdout', ...(lang ? ['-l', lang] : []), ...(format === 'tsv' ? ['tsv'] : [])];
    const child = spawn('tesseract', args, { stdio: ['ignore', 'pipe', 'ignore'], env });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', (err) => reject(new Error(`tesseract could not start (${err.message}); install Debian's tesseract-ocr`)));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`tesseract exited with ${code} on ${file}`))));
  });
}

/**
 * Rounds of a comparison with the anchor, each timing the anchor and then FrameText on the same media, as many as
 * `BENCH_ROUNDS` asks (3 by default). On a shared machine one timing moves by a tenth or more from run to run, so a
 * ratio is quoted as the median of its rounds'.
 */
export function benchRounds(env: Record<string, string | undefined>): number {
  const rounds = Number(env.BENCH_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a whole number of 1 or more, not ${env.BENCH_ROUNDS}`);
  return rounds;
}

/** The round whose figure is the middle one (the lower middle of an even count): the round a benchmark quotes. */
export function medianRound<T>(rounds: T[], figure: (round: T) => number): T {
  if (rounds.length === 0) throw new Error('the median of no rounds');
  return [...rounds].sort((a, b) => figure(a) - figure(b))[Math.floor((rounds.length - 1) / 2)]!;
}
