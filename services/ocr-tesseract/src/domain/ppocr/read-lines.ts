import { Tensor } from 'onnxruntime-node';
import type { CpuBudget } from '../../data/cpu-budget.js';
import { TesseractError } from '../../data/tesseract.js';
import { ctcGreedy, type DecodedChar } from './ctc.js';
import { DETECT_NORM, detectionSize, textRegions, type TextRegion } from './detect.js';
import { toPlanarBgr, type RgbImage } from './image.js';
import type { Box } from '../geometry.js';
import type { PpOcrModels } from '../../data/ppocr-models.js';

/** The recogniser reads lines scaled to this height. */
export const LINE_HEIGHT = 48;
/** Its narrowest input (PP-OCR's 320 × 48): shorter lines are padded to it. */
const MIN_LINE_WIDTH = 320;
/** A region wider than this many times its height is read at that ratio (squeezed): no caption is that long. */
const MAX_LINE_RATIO = 40;
/** Lines read per recogniser run (padded to the widest of them, so they are sorted by width first). */
const BATCH = 6;
/** Text regions read per frame at most: a frame's CPU stays bounded whatever it shows. */
export const MAX_REGIONS = 60;
/** A line read less surely than this (mean of its characters' probabilities) is dropped, as PP-OCR drops it. */
export const MIN_LINE_PROBABILITY = 0.5;

const REC_NORM = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] } as const;

/** A word of a recognised region: text between spaces, with its box in the frame's pixels. */
export interface ReadWord {
  text: string;
  box: Box;
  /** 0-100. */
  confidence: number;
}

/** A region the recogniser read: its text, box and how surely (0-100), and its words. */
export interface ReadRegion {
  text: string;
  box: Box;
  confidence: number;
  words: ReadWord[];
}

/**
 * Runs a model, its time spent from the frame's budget. The run has a thread of its own (intraOpNumThreads 1), so
 * its wall-clock time is its CPU time but for what others on the machine take; a frame whose budget is spent stops
 * before its next run.
 */
async function timed<T>(budget: CpuBudget | undefined, run: () => Promise<T>): Promise<T> {
  if (budget?.exhausted) throw new TesseractError('budget', `the frame used its ${budget.limitMs} ms of CPU time`);
  const started = performance.now();
  try {
    return await run();
  } finally {
    budget?.spend(performance.now() - started);
  }
}

/** The frame's text regions: the detector's probability map made into rectangles (detect.ts). */
export async function detectRegions(models: PpOcrModels, image: RgbImage, budget?: CpuBudget): Promise<TextRegion[]> {
  const size = detectionSize(image.width, image.height);
  const input = new Float32Array(3 * size.width * size.height);
  toPlanarBgr(image, { left: 0, top: 0, width: image.width, height: image.height }, size.width, size.height, DETECT_NORM, input);
  const feeds = { [models.detector.inputNames[0]!]: new Tensor('float32', input, [1, 3, size.height, size.width]) };
  const out = await timed(budget, () => models.detector.run(feeds));
  const map = out[models.detector.outputNames[0]!]!;
  const [, , height, width] = map.dims as number[];
  return textRegions(map.data as Float32Array, width!, height!, image.width, image.height);
}

/** Words of a decoded line, split at its spaces; each word's box spans the steps of its characters. */
function wordsOf(chars: DecodedChar[], region: Box, pixelsPerStep: number): ReadWord[] {
  const words: ReadWord[] = [];
  let run: DecodedChar[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const left = Math.max(region.left, Math.floor(region.left + run[0]!.step * pixelsPerStep));
    const right = Math.min(region.left + region.width, Math.ceil(region.left + (run.at(-1)!.step + 1) * pixelsPerStep));
    words.push({
      text: run.map((c) => c.char).join(''),
      box: { left, top: region.top, width: Math.max(1, right - left), height: region.height },
      confidence: (100 * run.reduce((s, c) => s + c.probability, 0)) / run.length,
    });
    run = [];
  };
  for (const c of chars) {
    if (c.char.trim() === '') flush();
    else run.push(c);
  }
  flush();
  return words;
}

/**
 * Reads each region as one line (PP-OCR's recogniser, CTC greedy decoding with its dictionary): regions scaled to
 * LINE_HEIGHT, read BATCH at a time padded to the widest, narrowest first. Lines read less surely than
 * MIN_LINE_PROBABILITY, or as nothing, are dropped.
 */
export async function readRegions(models: PpOcrModels, image: RgbImage, regions: readonly Box[], budget?: CpuBudget): Promise<ReadRegion[]> {
  const ratio = (r: Box) => Math.min(MAX_LINE_RATIO, r.width / Math.max(1, r.height));
  const order = regions.map((r, i) => ({ r, i })).sort((a, b) => ratio(a.r) - ratio(b.r));
  const read: (ReadRegion | undefined)[] = [];
  for (let start = 0; start < order.length; start += BATCH) {
    const batch = order.slice(start, start + BATCH);
    const width = Math.max(MIN_LINE_WIDTH, Math.ceil(LINE_HEIGHT * Math.max(...batch.map(({ r }) => ratio(r)))));
    const plane = width * LINE_HEIGHT;
    // Padding is 0 after normalising: mid grey, as PP-OCR pads.
    const input = new Float32Array(batch.length * 3 * plane);
    const widths = batch.map(({ r }, n) => {
      const w = Math.min(width, Math.max(1, Math.ceil(LINE_HEIGHT * ratio(r))));
      toPlanarBgr(image, r, w, LINE_HEIGHT, REC_NORM, input.subarray(n * 3 * plane, (n + 1) * 3 * plane), width);
      return w;
    });
    const feeds = { [models.recognizer.inputNames[0]!]: new Tensor('float32', input, [batch.length, 3, LINE_HEIGHT, width]) };
    const out = (await timed(budget, () => models.recognizer.run(feeds)))[models.recognizer.outputNames[0]!]!;
    const [, steps, classes] = out.dims as number[];
    const probabilities = out.data as Float32Array;
    batch.forEach(({ r, i }, n) => {
      const chars = ctcGreedy(probabilities, n * steps! * classes!, steps!, classes!, models.dictionary);
      const text = chars.map((c) => c.char).join('').trim();
      if (text === '') return;
      const probability = chars.reduce((s, c) => s + c.probability, 0) / chars.length;
      if (probability < MIN_LINE_PROBABILITY) return;
      // A step covers width / steps pixels of the line's image, which is the region scaled by LINE_HEIGHT / its height
      // (and squeezed to widths[n] when it was wider than MAX_LINE_RATIO).
      const pixelsPerStep = ((width / steps!) * r.width) / widths[n]!;
      read[i] = { text, box: r, confidence: probability * 100, words: wordsOf(chars, r, pixelsPerStep) };
    });
  }
  return read.filter((r): r is ReadRegion => r !== undefined);
}
