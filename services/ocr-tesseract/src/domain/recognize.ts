import type { Detection, MediaContent, Word } from '@frametext/contracts';
import { mergeRuns, readableRuns, runCandidate, wantsMaskPass as sharedWantsMaskPass } from '@frametext/text-analysis';
import { boxArea, boxVertices, unionBox } from './geometry.js';
import { prepareFrame } from './preprocess.js';
import { parseTsv, type TsvLine, type TsvWord } from './tsv.js';
import type { WhiteMaskMode } from '../config.js';

export type Pass = 'bare' | 'mask';

/** A frame at least this share of which is one grey level (give or take a few) has a plain background. */
export const PLAIN_BACKGROUND = 0.5;

/** Runs Tesseract on one PGM image and returns its TSV (a TesseractPool, runTesseract, or a stand-in in tests). */
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

/** When the mask pass runs (`auto`: a little near-white over a picture): text-analysis's rule, shared with the Local engine. */
export function wantsMaskPass(mode: WhiteMaskMode, whiteShare: number, mediaContent: MediaContent | undefined): boolean {
  return sharedWantsMaskPass(mode, whiteShare, mediaContent);
}

interface Candidate {
  words: TsvWord[];
  confidence: number;
}

const boxRect = (w: TsvWord) => ({ x: w.box.left, y: w.box.top, w: w.box.width, h: w.box.height });

/**
 * Keeps the words worth showing (some text, a plausible box, a confidence above the floor) and cuts the line at
 * wide gaps (a dashboard's label and its value far to the right): one candidate per run of words, so a value keeps
 * the same box on every frame whether or not Tesseract joined it to its label, and tracking can follow it. The
 * rules are text-analysis's readableRuns, which the Local engine in the browser applies too.
 */
function cleanLine(line: TsvLine, width: number, height: number, minConfidence: number): Candidate[] {
  return readableRuns(line.words, boxRect, { minConfidence, imageWidth: width, imageHeight: height }).map(runCandidate);
}

/**
 * Merges the passes' lines (text-analysis's mergeRuns, shared with the Local engine): lines by confidence, best
 * first; a word another kept line already holds at the same spot is dropped, and a line left without words is
 * dropped. So a caption read by both passes appears once, with the better reading, and nothing only one pass saw is
 * lost. Reading order: top to bottom, then left to right.
 */
export function mergeLines(candidates: Candidate[]): Candidate[] {
  return mergeRuns(candidates, boxRect);
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
 * Reads one frame with the passes it needs: the bare pass on the grey frame alone when there is no white text to
 * look for; both passes on a plain background with some white on it (a dashboard); over a picture, the pass on the
 * near-white mask, and the bare one only if the mask had nothing. The passes' lines are merged without duplicates.
 */
export async function recognizeFrame(image: Buffer, opts: RecognizeOptions, run: TesseractRunner, mediaContent?: MediaContent): Promise<FrameText> {
  const frame = await prepareFrame(image, { whiteThreshold: opts.whiteThreshold, maxPixels: opts.maxPixels });
  const read = async (pass: Pass) => parseTsv(await run(pass === 'bare' ? frame.grey : frame.whiteMask)).flatMap((line) => cleanLine(line, frame.width, frame.height, opts.minWordConfidence));
  const passes: Pass[] = [];
  const candidates: Candidate[] = [];
  if (!wantsMaskPass(opts.whiteMask, frame.whiteShare, mediaContent)) {
    passes.push('bare');
    candidates.push(...(await read('bare')));
  } else if (frame.plainShare >= PLAIN_BACKGROUND || opts.whiteMask === 'always') {
    // Text on a plain background: the bare pass reads every colour of it, the mask the white text more cleanly.
    // Both are asked for at once, so they can share one Tesseract process (TesseractPool).
    passes.push('bare', 'mask');
    candidates.push(...(await Promise.all([read('bare'), read('mask')])).flat());
  } else {
    // White text over a picture: on the picture itself Tesseract reads texture, so the bare pass is spent only
    // when the mask gave nothing.
    passes.push('mask');
    candidates.push(...(await read('mask')));
    if (candidates.length === 0) {
      passes.push('bare');
      candidates.push(...(await read('bare')));
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
