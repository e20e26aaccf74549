import { sortByReadingOrder } from '@frametext/text-analysis';
import type { CpuBudget } from '../../data/cpu-budget.js';
import { rectOf, unionBox } from '../geometry.js';
import { lineDetection, type FrameText } from '../recognize.js';
import { decodeRgb } from './image.js';
import { loadModels, type PpOcrModels } from '../../data/ppocr-models.js';
import type { TextRegion } from './detect.js';
import { detectRegions, MAX_REGIONS, readRegions, type ReadRegion } from './read-lines.js';

/** Runs a frame's reading in one of the worker's lanes (TesseractPool.runInLane), so it shares the cores with Tesseract. */
export type LaneRunner = <T>(job: () => Promise<T>, beforeRead?: () => Promise<void>) => Promise<T>;

/** Regions side by side are one line when the gap between them is at most this many times the line's height. */
const LINE_GAP = 1.5;

/**
 * Regions on one row, close enough, as one line to read: the detector leaves a caption's small punctuation (a
 * full-width comma, a question mark) out of its regions or alone in one, and cuts at a wide space (`你好 世界`); read
 * as one line, the comma and the space are in its text. A gap wider than LINE_GAP heights starts another line, as
 * text-analysis's splitAtWideGaps cuts Tesseract's lines. Each line's score is its surest region's.
 */
export function linesOf(regions: readonly TextRegion[]): TextRegion[] {
  const lines: TextRegion[] = [];
  for (const region of sortByReadingOrder(regions, rectOf)) {
    const a = lines.at(-1);
    if (a) {
      const b = region;
      const overlap = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
      const gap = b.left - (a.left + a.width);
      if (overlap >= Math.min(a.height, b.height) / 2 && gap <= LINE_GAP * Math.max(a.height, b.height)) {
        lines[lines.length - 1] = { ...unionBox([a, b]), score: Math.max(a.score, b.score) };
        continue;
      }
    }
    lines.push(region);
  }
  return lines;
}

const toDetection = (line: ReadRegion) => lineDetection(line.text, line.box, line.confidence, line.words);

export interface PpOcrReaderOptions {
  /** Frames with more pixels are refused as unreadable (OCR_MAX_PIXELS). */
  maxPixels: number;
}

/**
 * Reads a frame's text with PP-OCR (PaddleOCR's detector and recogniser through onnxruntime-node), for scripts
 * Tesseract reads poorly on pictures (Chinese captions: docs/cjk-captions.md). The models are loaded once, on the
 * first frame, and shared by every read; each frame is read in one of the worker's lanes. Its lines come out as
 * Tesseract's do (text, box, confidence, words), so caption tracking and the exports take them alike.
 */
export class PpOcrReader {
  private models?: Promise<PpOcrModels>;

  constructor(
    private readonly options: PpOcrReaderOptions,
    private readonly lane: LaneRunner,
  ) {}

  /** The models, loaded once (a failed load is tried again on the next frame). */
  loaded(): Promise<PpOcrModels> {
    return (this.models ??= loadModels().catch((err: unknown) => {
      this.models = undefined;
      throw err;
    }));
  }

  async read(image: Buffer, budget?: CpuBudget, beforeRead?: () => Promise<void>): Promise<FrameText> {
    const models = await this.loaded();
    const rgb = await decodeRgb(image, this.options.maxPixels);
    const regions = await this.lane(async () => {
      const found = linesOf(await detectRegions(models, rgb, budget));
      // The surest lines, when a frame holds more than a frame's reading may take.
      const kept = found.length > MAX_REGIONS ? [...found].sort((a, b) => b.score - a.score).slice(0, MAX_REGIONS) : found;
      return readRegions(models, rgb, sortByReadingOrder(kept, rectOf), budget);
    }, beforeRead);
    const detections = regions.map(toDetection);
    return {
      detections,
      words: detections.flatMap((d) => d.words ?? []),
      imageWidth: rgb.width,
      imageHeight: rgb.height,
      passes: [],
      whiteShare: 0,
    };
  }
}
