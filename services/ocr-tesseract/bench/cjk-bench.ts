import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHINESE_CAPTIONS, FONT_CJK, FONT_CJK_ZENHEI, ffmpeg, makeCaptionsVideo } from '@frametext/sample-media';
import { configSchema, tesseractEnv } from '../src/config.js';
import { PpOcrReader } from '../src/domain/ppocr/reader.js';
import type { FrameText } from '../src/domain/recognize.js';
import { TesseractPool } from '../src/data/tesseract-pool.js';
import { UploadReader } from '../src/domain/upload-reader.js';
import { recognizeOptions, tesseractOptions } from '../src/service.js';
import { CORPUS_DIR } from './corpus.js';

/** A caption on screen from `startS` to `endS`, one line of it per string. */
export interface Cue {
  lines: string[];
  startS: number;
  endS: number;
}

export interface CjkClip {
  name: string;
  kind: 'real' | 'generated';
  path: string;
  cues: Cue[];
  /** The Tesseract model its text is read with by Tesseract. */
  tesseract: string;
}

/** Frames this close to a cue's start or end are not judged: which caption they show is a matter of rounding. */
const EDGE_S = 0.1;

/** The caption lines on screen at `t`, or undefined when `t` is too close to a change to judge. */
export function linesAt(cues: readonly Cue[], t: number): string[] | undefined {
  if (cues.some((c) => Math.abs(t - c.startS) < EDGE_S || Math.abs(t - c.endS) < EDGE_S)) return undefined;
  return cues.filter((c) => t >= c.startS && t < c.endS).flatMap((c) => c.lines);
}

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}

/** Chinese is written without spaces; Tesseract puts them between characters. Compared without any. */
const bare = (s: string) => s.replace(/\s+/g, '');

export interface Score {
  /** Characters of the truth lines read right: each line's length less its edit distance to the closest line read. */
  chars: number;
  totalChars: number;
  /** Truth lines read exactly (spaces aside) as one line. */
  lines: number;
  totalLines: number;
}

/** How well `read` (the lines read on a frame) holds `truth` (the lines shown on it). */
export function score(truth: readonly string[], read: readonly string[]): Score {
  const got = read.map(bare).filter((l) => l.length > 0);
  const s: Score = { chars: 0, totalChars: 0, lines: 0, totalLines: truth.length };
  for (const line of truth.map(bare)) {
    const length = [...line].length;
    const distance = Math.min(length, ...got.map((g) => editDistance(line, g)));
    s.totalChars += length;
    s.chars += length - distance;
    if (got.includes(line)) s.lines++;
  }
  return s;
}

const add = (a: Score, b: Score): Score => ({ chars: a.chars + b.chars, totalChars: a.totalChars + b.totalChars, lines: a.lines + b.lines, totalLines: a.totalLines + b.totalLines });
const none = (): Score => ({ chars: 0, totalChars: 0, lines: 0, totalLines: 0 });

/** CPU time (ms) of this process's children that have ended and been waited for (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Bare Tesseract on one file, single-threaded, plain text: its lines. */
function tesseractLines(file: string, lang: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', [file, 'stdout', '-l', lang], { env: { ...tesseractEnv(), OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.split('\n').filter((l) => l.trim() !== '')) : reject(new Error(`tesseract exited with ${code}`))));
  });
}

export interface EngineFigures extends Score {
  /** CPU time per frame (ms): decoding and reading, the engine's processes included. */
  cpuMsPerFrame: number;
}

export interface ClipFigures {
  name: string;
  kind: CjkClip['kind'];
  frames: number;
  /** FrameText's reader for Chinese captions (PP-OCR). */
  ppocr: EngineFigures;
  /** FrameText's Tesseract reading (the Basic engine's passes) with the same model, as it read Chinese before. */
  tesseractPipeline: EngineFigures;
  /** Bare `tesseract frame.jpg stdout -l chi_sim`, single-threaded. */
  bare: EngineFigures;
}

/** The frames judged: every `step` seconds from `step / 2`, with the lines each shows (linesAt). */
async function framesOf(clip: CjkClip, dir: string, durationS: number, step: number): Promise<{ file: string; truth: string[] }[]> {
  const frames: { file: string; truth: string[] }[] = [];
  for (let t = step / 2; t < durationS; t += step) {
    const truth = linesAt(clip.cues, t);
    if (truth === undefined) continue;
    const file = join(dir, `${clip.name}-${frames.length}.jpg`);
    await ffmpeg(['-ss', t.toFixed(3), '-i', clip.path, '-frames:v', '1', '-q:v', '2', file]);
    frames.push({ file, truth });
  }
  return frames;
}

async function measure(frames: { file: string; truth: string[] }[], read: (file: string, n: number) => Promise<string[]>, finish?: () => Promise<void>): Promise<EngineFigures> {
  const cpu0 = ownCpuMs() + childrenCpuMs();
  let s = none();
  for (const [n, f] of frames.entries()) s = add(s, score(f.truth, await read(f.file, n)));
  await finish?.();
  const cpu = ownCpuMs() + childrenCpuMs() - cpu0;
  return { ...s, cpuMsPerFrame: Math.round(cpu / Math.max(1, frames.length)) };
}

const linesOfText = (text: FrameText) => text.detections.map((d) => d.text);

/**
 * Reads each clip's frames with FrameText's PP-OCR reader, FrameText's Tesseract reading and bare Tesseract, one
 * frame at a time on one core, and scores each against the captions shown.
 */
export async function runCjkBench(o: { clips?: CjkClip[]; log?: (line: string) => void } = {}): Promise<ClipFigures[]> {
  const log = o.log ?? (() => undefined);
  const scratch = await mkdtemp(join(tmpdir(), 'cjk-bench-'));
  const config = configSchema.parse({ OCR_CONCURRENCY: '1' });
  const ppocr = new PpOcrReader({ maxPixels: config.OCR_MAX_PIXELS }, (job) => job());
  try {
    const clips = o.clips ?? (await cjkClips(scratch));
    // Loading the models is paid once per worker, not per frame.
    await ppocr.loaded();
    const figures: ClipFigures[] = [];
    for (const clip of clips) {
      const duration = Math.max(...clip.cues.map((c) => c.endS)) + 0.5;
      const frames = await framesOf(clip, scratch, duration, clip.kind === 'real' ? 0.25 : 1);
      log(`${clip.name}: ${frames.length} frames`);
      const pp = await measure(frames, async (file) => linesOfText(await ppocr.read(await readFile(file))));
      const pool = new TesseractPool(tesseractOptions(config), { lanes: 1 });
      const reader = new UploadReader(recognizeOptions(config), (image, lang, budget) => pool.read(image, lang, budget));
      const pipeline = await measure(
        frames,
        async (file) => linesOfText(await reader.read(readFile(file), { uploadId: clip.name, mediaContent: 'captions', originalLanguage: null, model: clip.tesseract, fromVideo: true })),
        () => pool.close(),
      );
      const plain = await measure(frames, (file) => tesseractLines(file, clip.tesseract));
      figures.push({ name: clip.name, kind: clip.kind, frames: frames.length, ppocr: pp, tesseractPipeline: pipeline, bare: plain });
    }
    return figures;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The clips: the real ones of bench/corpus/subtitles whose manifest gives their cues' times (Chinese subtitles from
 * public test suites), and two generated with Debian's WenQuanYi fonts (CHINESE_CAPTIONS): 720p in Micro Hei over
 * a moving picture, and 480p in Zen Hei with specks and a passing sign around the captions.
 */
export async function cjkClips(dir: string): Promise<CjkClip[]> {
  const manifest = JSON.parse(await readFile(join(CORPUS_DIR, 'subtitles', 'manifest.json'), 'utf8')) as {
    items: { file: string; language?: string; cues?: { text: string; startS: number; endS: number }[] }[];
  };
  const real: CjkClip[] = manifest.items
    .filter((i) => i.cues && (i.language === 'chi_sim' || i.language === 'chi_tra'))
    .map((i) => ({ name: i.file, kind: 'real', path: join(CORPUS_DIR, 'subtitles', i.file), tesseract: i.language!, cues: i.cues!.map((c) => ({ lines: c.text.split('\n'), startS: c.startS, endS: c.endS })) }));
  const cues = CHINESE_CAPTIONS.map((c) => ({ lines: c.text.split('\n'), startS: c.startS, endS: c.endS }));
  const microHei = await makeCaptionsVideo({ dir, name: 'zh-microhei-720p.mp4', captions: CHINESE_CAPTIONS, font: FONT_CJK, size: 40, outline: 2 });
  const zenHei = await makeCaptionsVideo({ dir, name: 'zh-zenhei-480p.mp4', captions: CHINESE_CAPTIONS, font: FONT_CJK_ZENHEI, size: 40, outline: 2, clutter: true, width: 854, height: 480 });
  return [
    ...real,
    { name: 'generated 720p, WenQuanYi Micro Hei', kind: 'generated', path: microHei.path, tesseract: 'chi_sim', cues },
    { name: 'generated 480p, WenQuanYi Zen Hei, clutter', kind: 'generated', path: zenHei.path, tesseract: 'chi_sim', cues },
  ];
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '-');

export function printCjkBench(figures: ClipFigures[]): void {
  console.log('\nChinese captions: characters and whole lines read right, CPU per frame (one frame at a time, one core)');
  console.log('clip                                          frames  engine                    characters  lines          CPU ms/frame');
  for (const c of figures) {
    for (const [label, e] of [
      ['FrameText (PP-OCR)', c.ppocr],
      ['FrameText Tesseract path', c.tesseractPipeline],
      ['bare Tesseract', c.bare],
    ] as const) {
      console.log(`${c.name.slice(0, 44).padEnd(46)}${String(c.frames).padEnd(8)}${label.padEnd(26)}${pct(e.chars, e.totalChars).padEnd(12)}${`${e.lines}/${e.totalLines} ${pct(e.lines, e.totalLines)}`.padEnd(15)}${e.cpuMsPerFrame}`);
    }
  }
}
