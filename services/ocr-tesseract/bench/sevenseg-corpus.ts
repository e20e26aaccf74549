import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { prepareFrame } from '../src/domain/preprocess.js';
import { readSevenSegment } from '../src/domain/seven-segment.js';
import { CORPUS_DIR, LONE_DIGITS_DIR } from './paths.js';
import { wordsOf, type SegmentTally } from './seven-segment-bench.js';

/** The corpus of displays the reader was not built on: real photos from public repositories and font-drawn displays. */
export const SEVENSEG_MANIFEST = join(CORPUS_DIR, 'sevenseg', 'manifest.json');

/** One file of `bench/corpus/sevenseg/manifest.json`. */
export interface SevenSegItem {
  file: string;
  /** `photo` from a public repository, `font` a display drawn with a seven-segment font, `negative` a frame without a display. */
  set: 'photo' | 'font' | 'negative';
  source: { repo: string; package?: string };
  display: 'lcd' | 'led' | 'none';
  /** Set on a photo of one digit cut out of a display (a training set's crop), not of a whole display. */
  crop?: string;
  /** Added after the reader was written, and measured before any rule was changed for it. */
  heldOut?: boolean;
  /** The display shows values its source does not publish (a monitor's pulse): other numbers read there are not judged. */
  partialTruth?: boolean;
  truth: string[];
}

export interface SevenSegCorpusFigures {
  /** Values read exactly, by source (a repository, or the font package) and by display kind. */
  bySource: Record<string, SegmentTally>;
  byDisplay: Record<string, SegmentTally>;
  photos: SegmentTally;
  /** The photos of whole displays (single-digit crops left out: the reader does not read a lone digit). */
  displays: SegmentTally;
  /** Those of them added after the reader was written (`heldOut`). */
  heldOut: SegmentTally;
  fonts: SegmentTally;
  /** Words the reader returned that no display of their frame shows (misreadings and phantoms), and those on frames without a display. */
  wrong: number;
  phantoms: number;
  /** CPU time of the reader per frame, the decode excluded. */
  readerMsPerFrame: number;
  /** Per file: what was expected and what was read. */
  files: { file: string; truth: string[]; read: string[] }[];
}

const add = (table: Record<string, SegmentTally>, key: string, hit: boolean) => {
  table[key] ??= { found: 0, total: 0 };
  table[key].total++;
  if (hit) table[key].found++;
};

/** Runs the segment reader alone on every file of the manifest and counts the values it reads exactly. */
export async function runSevenSegCorpus(manifestPath = SEVENSEG_MANIFEST): Promise<SevenSegCorpusFigures> {
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { items: SevenSegItem[] };
  const dir = dirname(manifestPath);
  const bySource: Record<string, SegmentTally> = {};
  const byDisplay: Record<string, SegmentTally> = {};
  const photos = { found: 0, total: 0 };
  const displays = { found: 0, total: 0 };
  const heldOut = { found: 0, total: 0 };
  const fonts = { found: 0, total: 0 };
  const files: SevenSegCorpusFigures['files'] = [];
  let wrong = 0;
  let phantoms = 0;
  let cpuMs = 0;
  for (const item of manifest.items) {
    const frame = await prepareFrame(await readFile(join(dir, item.file)), { whiteThreshold: 200, maxPixels: 50_000_000 });
    const before = process.cpuUsage();
    const words = readSevenSegment({ width: frame.width, height: frame.height, bright: frame.brightPixels, grey: frame.greyPixels });
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
    const read = [...wordsOf(words.map((w) => w.text).join(' '))];
    files.push({ file: item.file, truth: item.truth, read });
    if (item.set === 'negative') phantoms += read.length;
    else if (!item.partialTruth) wrong += read.filter((w) => !item.truth.includes(w)).length;
    for (const value of item.truth) {
      const hit = read.includes(value);
      add(bySource, item.source.repo, hit);
      add(byDisplay, `${item.set} ${item.display}`, hit);
      const whole = item.crop ? [] : item.heldOut ? [displays, heldOut] : [displays];
      for (const tally of item.set === 'font' ? [fonts] : [photos, ...whole]) {
        tally.total++;
        if (hit) tally.found++;
      }
    }
  }
  return { bySource, byDisplay, photos, displays, heldOut, fonts, wrong, phantoms, readerMsPerFrame: Math.round((cpuMs / manifest.items.length) * 10) / 10, files };
}

const pct = (t: SegmentTally) => `${t.total ? ((t.found / t.total) * 100).toFixed(1) : '0.0'}%`;

/** The corpus figures as lines for `npm run bench`. */
export function printSevenSegCorpus(f: SevenSegCorpusFigures, print: (line: string) => void = console.log): void {
  print('\nSeven-segment corpus (bench/corpus/sevenseg: public photos and font-drawn displays), the segment reader alone');
  print(`    photos      ${pct(f.photos)} of ${f.photos.total} values; of whole displays ${pct(f.displays)} of ${f.displays.total} (added after the reader was written: ${pct(f.heldOut)} of ${f.heldOut.total})`);
  print(`    fonts       ${pct(f.fonts)} of ${f.fonts.total} values (target >= 90% on photos and on fonts)`);
  for (const [key, t] of Object.entries(f.byDisplay).sort()) print(`    ${key.padEnd(11)} ${pct(t)} of ${t.total}`);
  for (const [key, t] of Object.entries(f.bySource).sort()) print(`    ${key.padEnd(36)} ${pct(t)} of ${t.total}`);
  print(`    words no display shows: ${f.wrong}   on frames without a display: ${f.phantoms}   reader ${f.readerMsPerFrame} ms CPU a frame`);
}

/** The folders of bench/lone-digits: photo crops the lone-digit rules were worked out on, held-out ones, font-drawn digits. */
export const LONE_DIGIT_SETS = ['kazuhito-dev', 'kazuhito-test', 'dseg'] as const;

export interface LoneDigitFigures {
  set: (typeof LONE_DIGIT_SETS)[number];
  /** Digits read exactly, of the frames that show one. */
  found: number;
  total: number;
  /** Readings that are not the frame's digit, and readings on frames without one (of `blanks`). */
  wrong: number;
  phantoms: number;
  blanks: number;
}

/** Runs the segment reader alone on each folder of bench/lone-digits. */
export async function runLoneDigits(): Promise<LoneDigitFigures[]> {
  const figures: LoneDigitFigures[] = [];
  for (const set of LONE_DIGIT_SETS) {
    const f = await runSevenSegCorpus(join(LONE_DIGITS_DIR, set, 'manifest.json'));
    figures.push({
      set,
      found: f.photos.found + f.fonts.found,
      total: f.photos.total + f.fonts.total,
      wrong: f.wrong,
      phantoms: f.phantoms,
      blanks: f.files.filter((x) => x.truth.length === 0).length,
    });
  }
  return figures;
}

export function printLoneDigits(figures: LoneDigitFigures[], print: (line: string) => void = console.log): void {
  print('\nLone seven-segment digits (bench/lone-digits: one digit filling the frame), the segment reader alone');
  for (const f of figures) print(`    ${f.set.padEnd(14)} ${pct(f)} of ${f.total}   wrong ${f.wrong}   read on ${f.phantoms} of ${f.blanks} frames without a digit`);
}
