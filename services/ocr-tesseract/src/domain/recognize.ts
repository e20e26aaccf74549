import type { Detection, MediaContent, Word } from '@frametext/contracts';
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
 * A gap between two words wider than this many times the taller word's height ends one detection and starts
 * another. Word spacing in running text is well under one height; a dashboard's label and its value ("Battery",
 * then far to the right "45%"), or two table columns, sit much farther apart, and Tesseract still calls them one
 * line. Kept apart, a value keeps the same box on every frame, so the Numerical view can follow it.
 */
export const COLUMN_GAP_FACTOR = 1.5;

/** Splits a line's words (in reading order) where the gap between neighbours is a column gap. */
export function splitAtColumnGaps(words: TsvWord[]): TsvWord[][] {
  const runs: TsvWord[][] = [];
  let run: TsvWord[] = [];
  for (const word of words) {
    const previous = run[run.length - 1];
    if (previous) {
      const gap = word.box.left - (previous.box.left + previous.box.width);
      if (gap > COLUMN_GAP_FACTOR * Math.max(previous.box.height, word.box.height)) {
        runs.push(run);
        run = [];
      }
    }
    run.push(word);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Keeps the words worth showing (some text, a plausible box, a confidence above the floor) and splits the line
 * at column gaps: one candidate per run of words.
 */
function cleanLine(line: TsvLine, width: number, height: number, minConfidence: number): Candidate[] {
  const words = line.words
    .map((w) => ({ ...w, text: w.text.trim() }))
    .filter((w) => w.text.length > 0 && w.confidence >= minConfidence && !isAbsurdBox(w.box, width, height));
  return splitAtColumnGaps(words).map((run) => ({ words: run, confidence: mean(run.map((w) => w.confidence)) }));
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
