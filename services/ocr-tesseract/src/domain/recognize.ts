import type { Detection, MediaContent, Word } from '@frametext/contracts';
import { splitAtWideGaps } from '@frametext/text-analysis';
import { boxArea, boxVertices, containment, iou, isAbsurdBox, unionBox, type Box } from './geometry.js';
import { prepareFrame } from './preprocess.js';
import { parseTsv, type TsvLine, type TsvWord } from './tsv.js';
import type { WhiteMaskMode } from '../config.js';

export type Pass = 'bare' | 'mask';

/** Runs Tesseract on one PGM image and returns its TSV (runTesseract, or a stand-in in tests). */
export type TesseractRunner = (image: Buffer) => Promise<string>;

export interface RecognizeOptions {
  whiteMask: WhiteMaskMode;
  whiteThreshold: number;
  minWordConfidence: number;
  maxPixels: number;
}

export interface FrameText {
  detections: Detection[];
  words: Word[];
  imageWidth: number;
  imageHeight: number;
  passes: Pass[];
  whiteShare: number;
}

/**
 * In `auto`, the mask pass runs when near-white pixels cover a small share of the frame: enough for text, too
 * little to be a white page (dark text on a light slide is the bare pass's job, and its mask would be a black page).
 */
export const MASK_MIN_WHITE_SHARE = 0.0002;
export const MASK_MAX_WHITE_SHARE = 0.5;

export function wantsMaskPass(mode: WhiteMaskMode, whiteShare: number, mediaContent: MediaContent | undefined): boolean {
  if (mode === 'never') return false;
  if (mode === 'always') return true;
  if (whiteShare < MASK_MIN_WHITE_SHARE) return false;
  return mediaContent === 'captions' || whiteShare <= MASK_MAX_WHITE_SHARE;
}

interface Candidate {
  words: TsvWord[];
  confidence: number;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/**
 * Keeps the words worth showing (some text, a plausible box, a confidence above the floor) and cuts the line at
 * wide gaps (a dashboard's label and its value far to the right): one candidate per run of words, so a value keeps
 * the same box on every frame whether or not Tesseract joined it to its label, and tracking can follow it.
 */
function cleanLine(line: TsvLine, width: number, height: number, minConfidence: number): Candidate[] {
  const words = line.words
    .map((w) => ({ ...w, text: w.text.trim() }))
    .filter((w) => w.text.length > 0 && w.confidence >= minConfidence && !isAbsurdBox(w.box, width, height));
  return splitAtWideGaps(words, (w) => ({ x: w.box.left, y: w.box.top, w: w.box.width, h: w.box.height })).map((run) => ({
    words: run,
    confidence: mean(run.map((w) => w.confidence)),
  }));
}

/** The same word read by both passes: boxes that mostly coincide, or one inside the other. */
function sameSpot(a: Box, b: Box): boolean {
  return iou(a, b) >= 0.4 || containment(a, b) >= 0.7;
}

/**
 * Merges the passes' lines. Lines are taken by confidence, best first; a word another kept line already holds
 * at the same spot is dropped, and a line left without words is dropped. So a caption read by both passes
 * appears once, with the better reading, and nothing only one pass saw is lost.
 */
export function mergeLines(candidates: Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  const keptWords: Box[] = [];
  for (const c of [...candidates].sort((a, b) => b.confidence - a.confidence)) {
    const fresh = c.words.filter((w) => !keptWords.some((k) => sameSpot(k, w.box)));
    if (fresh.length === 0) continue;
    const line = fresh.length === c.words.length ? c : { words: fresh, confidence: mean(fresh.map((w) => w.confidence)) };
    kept.push(line);
    keptWords.push(...fresh.map((w) => w.box));
  }
  // Reading order: top to bottom, then left to right.
  return kept.sort((a, b) => {
    const ba = unionBox(a.words.map((w) => w.box));
    const bb = unionBox(b.words.map((w) => w.box));
    return Math.abs(ba.top - bb.top) > Math.min(ba.height, bb.height) / 2 ? ba.top - bb.top : ba.left - bb.left;
  });
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function toWord(w: TsvWord): Word {
  return { text: w.text, vertices: boxVertices(w.box), confidence: round1(w.confidence) };
}

function toDetection(c: Candidate): Detection {
  const box = unionBox(c.words.map((w) => w.box));
  return {
    text: c.words.map((w) => w.text).join(' '),
    vertices: boxVertices(box),
    area: boxArea(box),
    confidence: round1(c.confidence),
    blockType: 'LINE',
    words: c.words.map(toWord),
  };
}

/**
 * Reads one frame: a bare pass on the grey frame, and when the frame may hold white text over a picture, a
 * second pass on its near-white mask; the passes' lines are merged without duplicates.
 */
export async function recognizeFrame(image: Buffer, opts: RecognizeOptions, run: TesseractRunner, mediaContent?: MediaContent): Promise<FrameText> {
  const frame = await prepareFrame(image, { whiteThreshold: opts.whiteThreshold, maxPixels: opts.maxPixels });
  const passes: Pass[] = ['bare'];
  if (wantsMaskPass(opts.whiteMask, frame.whiteShare, mediaContent)) passes.push('mask');
  const candidates: Candidate[] = [];
  for (const pass of passes) {
    const tsv = await run(pass === 'bare' ? frame.grey : frame.whiteMask);
    for (const line of parseTsv(tsv)) {
      candidates.push(...cleanLine(line, frame.width, frame.height, opts.minWordConfidence));
    }
  }
  const detections = mergeLines(candidates).map(toDetection);
  return {
    detections,
    words: detections.flatMap((d) => d.words ?? []),
    imageWidth: frame.width,
    imageHeight: frame.height,
    passes,
    whiteShare: frame.whiteShare,
  };
}
