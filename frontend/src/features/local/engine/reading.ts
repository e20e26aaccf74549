import { mergeRuns, readableRuns, runCandidate, type Rect, type RunCandidate } from '@frametext/text-analysis';
import type { LocalWord } from '../../../lib/localRecords';

/*
 * What the Local engine keeps of one frame Tesseract read: the same line rules as the Basic engine on the server
 * (text-analysis's readableRuns: trimmed words, blank and implausible ones dropped, lines cut at wide gaps), with
 * the spec's word floor of confidence 80, and the same merge of the two passes (mergeRuns). Pure, so it is tested
 * without a browser.
 */

/** The spec: only words with non-empty text and confidence 80 or more are kept. */
export const LOCAL_MIN_WORD_CONFIDENCE = 80;

/** The parts of tesseract.js's page this reads (its blocks output). */
export interface TessWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
export interface TessPage {
  blocks: { paragraphs: { lines: { words: TessWord[] }[] }[] }[] | null;
}

export interface FrameReading {
  /** The runs' texts, one per line, top to bottom. */
  text: string;
  words: LocalWord[];
}

const rectOf = (w: TessWord): Rect => ({ x: w.bbox.x0, y: w.bbox.y0, w: w.bbox.x1 - w.bbox.x0, h: w.bbox.y1 - w.bbox.y0 });
const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** The runs of words one pass read: each line through the shared line rules. */
export function pageRuns(page: TessPage, width: number, height: number): RunCandidate<TessWord>[] {
  const rules = { minConfidence: LOCAL_MIN_WORD_CONFIDENCE, imageWidth: width, imageHeight: height };
  return (page.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => readableRuns(l.words, rectOf, rules).map(runCandidate))));
}

/**
 * Reads a frame of `width` x `height` pixels from its passes (the grey frame, and its white mask when it was read
 * too), merged as the Basic engine merges them, into the frame's text and normalised words.
 */
export function readPage(pages: TessPage | readonly TessPage[], width: number, height: number): FrameReading {
  const runs = mergeRuns(
    (Array.isArray(pages) ? pages : [pages]).flatMap((page: TessPage) => pageRuns(page, width, height)),
    rectOf,
  );
  const words: LocalWord[] = runs.flatMap(({ words: run }, index) =>
    run.map((w) => {
      const r = rectOf(w);
      return { text: w.text, nbox: { x: round4(r.x / width), y: round4(r.y / height), w: round4(r.w / width), h: round4(r.h / height) }, conf: Math.round(w.confidence * 10) / 10, run: index };
    }),
  );
  return { text: runs.map(({ words: run }) => run.map((w) => w.text).join(' ')).join('\n'), words };
}
