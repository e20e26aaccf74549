import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANGUAGES } from '@frametext/contracts/languages';
import { DEFAULT_MEDIA_CONTENT, type MediaContent } from '@frametext/contracts/rules';
import { anchorExtract, anchorRead } from '@frametext/sample-media';
import { tesseractEnv, type Config } from '../src/config.js';
import type { FrameText } from '../src/domain/recognize.js';
import { tesseractPool, uploadReader } from '../src/service.js';
import { CORPUS_DIR } from './paths.js';

export { CORPUS_DIR };

export interface CorpusItem {
  category: string;
  /** The file's path. */
  path: string;
  /** The file's name in its category's folder. */
  file: string;
  kind: 'image' | 'video';
  /** The repository it came from (owner/name). */
  repo: string;
  /** The Tesseract model of its text (both engines read with it). */
  language: string;
  /** The media content the upload asks for (numerical, the product's default, unless the manifest says). */
  mode: MediaContent;
  /** Strings the source says the media shows. */
  truth: string[];
}

interface ManifestItem {
  file: string;
  kind?: 'image' | 'video';
  source: { repo: string };
  language?: string;
  mode?: MediaContent;
  truth: string[];
}

/** Every item of every category's manifest (bench/corpus/<category>/manifest.json). */
export async function loadCorpus(dir = CORPUS_DIR): Promise<CorpusItem[]> {
  const items: CorpusItem[] = [];
  for (const category of (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const manifest = JSON.parse(await readFile(join(dir, category, 'manifest.json'), 'utf8')) as { items: ManifestItem[] };
    for (const m of manifest.items) {
      items.push({
        category,
        path: join(dir, category, m.file),
        file: m.file,
        kind: m.kind ?? 'image',
        repo: m.source.repo,
        language: m.language ?? 'eng',
        mode: m.mode ?? DEFAULT_MEDIA_CONTENT,
        truth: m.truth,
      });
    }
  }
  return items;
}

/** The language list's code of a Tesseract model (`chi_sim` is `zh-CN`), as an upload names its language. */
export function languageCode(model: string): string | null {
  return LANGUAGES.find((l) => l.tesseract === model)?.code ?? null;
}

/** Text with every run of spaces one space, so a string matches across Tesseract's spacing and line breaks alike. */
const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * How many of the truth's strings the text holds, line breaks and runs of spaces counted as one space. A value a
 * display shows counts in a line of other words as well (`12.34` in `TOTAL 12.34 EUR`).
 */
export function truthFound(truth: readonly string[], text: string): number {
  const haystack = ` ${spaced(text)} `;
  return truth.filter((t) => haystack.includes(spaced(t))).length;
}

export interface Tally {
  items: number;
  total: number;
  ours: number;
  bare: number;
}

export interface ItemFigures {
  category: string;
  file: string;
  repo: string;
  total: number;
  ours: number;
  bare: number;
  /** The truth strings the Basic engine missed. */
  missed: string[];
}

export interface CorpusFigures {
  items: ItemFigures[];
  byCategory: Record<string, Tally>;
  /** Seconds each spent on the whole corpus (ours: the stored frame and the reading). */
  seconds: { ours: number; bare: number };
}

/** The text a frame's reading gives a person: its lines, top to bottom. */
const frameText = (text: FrameText) => text.detections.map((d) => d.text).join('\n');

export interface CorpusBenchOptions {
  items: CorpusItem[];
  config: Config;
  /**
   * The frame as the product stores it for OCR (frame-extraction's storedFrameOf: an uploaded image as stored, a
   * video's frame as its JPEG), so the Basic engine reads what it reads in the product.
   */
  storedFrame: (image: Buffer, kind: CorpusItem['kind']) => Promise<Buffer>;
  /** Whether bare Tesseract reads the corpus too (the benchmark), or only the Basic engine (the accuracy test). */
  withBare?: boolean;
  log?: (line: string) => void;
}

/**
 * Reads every item of the corpus with bare Tesseract (the file itself, or ffmpeg's frames at one a second) and with
 * the Basic engine (the same images as the product stores them, each video as one upload), and counts the truth each
 * one's text holds.
 */
export async function runCorpusBench(o: CorpusBenchOptions): Promise<CorpusFigures> {
  const log = o.log ?? (() => undefined);
  const pool = tesseractPool(o.config);
  const reader = uploadReader(o.config, pool);
  const scratch = await mkdtemp(join(tmpdir(), 'corpus-bench-'));
  const seconds = { ours: 0, bare: 0 };
  const items: ItemFigures[] = [];
  try {
    for (const [n, item] of o.items.entries()) {
      const files = item.kind === 'video' ? (await anchorExtract(item.path, 1, join(scratch, String(n)))).files : [item.path];
      const anchor = o.withBare === false ? { texts: [], seconds: 0 } : await anchorRead(files, { env: tesseractEnv(), lang: item.language });
      seconds.bare += anchor.seconds;
      const t0 = performance.now();
      const texts = await Promise.all(
        files.map((f) =>
          reader
            .read(readFile(f).then((image) => o.storedFrame(image, item.kind)), { uploadId: `corpus-${n}`, mediaContent: item.mode, originalLanguage: languageCode(item.language), model: item.language, fromVideo: item.kind === 'video' })
            .then(frameText),
        ),
      );
      seconds.ours += (performance.now() - t0) / 1000;
      const ours = texts.join('\n');
      const bare = anchor.texts.join('\n');
      const figures = {
        category: item.category,
        file: item.file,
        repo: item.repo,
        total: item.truth.length,
        ours: truthFound(item.truth, ours),
        bare: truthFound(item.truth, bare),
        missed: item.truth.filter((t) => truthFound([t], ours) === 0),
      };
      log(`${item.category}/${item.file}: ours ${figures.ours}/${figures.total}, bare ${figures.bare}/${figures.total}`);
      items.push(figures);
    }
  } finally {
    await pool.close();
    await rm(scratch, { recursive: true, force: true });
  }
  const byCategory: Record<string, Tally> = {};
  for (const i of items) {
    const t = (byCategory[i.category] ??= { items: 0, total: 0, ours: 0, bare: 0 });
    t.items++;
    t.total += i.total;
    t.ours += i.ours;
    t.bare += i.bare;
  }
  return { items, byCategory, seconds: { ours: round(seconds.ours), bare: round(seconds.bare) } };
}

const round = (x: number) => Math.round(x * 100) / 100;
