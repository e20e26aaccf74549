import type { Detection, Word } from '@frametext/contracts';
import { boundsOf, rectVertices, splitAtWideGaps, type Point, type Rect } from '@frametext/text-analysis';

/*
 * Vision's full-text annotation (pages > blocks > paragraphs > words > symbols) turned into the detections the
 * Basic engine gives: one per line of text, cut at wide gaps, with an axis-aligned box clockwise from the
 * top-left in frame pixels, a confidence from 0 to 100, blockType LINE and the line's words. So the viewers,
 * tracking and exports treat both engines alike.
 *
 * The shapes below are the parts of Vision's answer we read, written structurally so that both the client
 * library's objects and plain JSON fit. Vision leaves out zero values (a vertex at x = 0 has no `x`).
 */

export interface VisionVertex {
  x?: number | null;
  y?: number | null;
}
export interface VisionBox {
  vertices?: VisionVertex[] | null;
}
export interface VisionSymbol {
  text?: string | null;
  property?: { detectedBreak?: { type?: string | number | null } | null } | null;
}
export interface VisionWord {
  boundingBox?: VisionBox | null;
  symbols?: VisionSymbol[] | null;
  confidence?: number | null;
}
export interface VisionParagraph {
  words?: VisionWord[] | null;
}
export interface VisionBlock {
  paragraphs?: VisionParagraph[] | null;
}
export interface VisionPage {
  width?: number | null;
  height?: number | null;
  blocks?: VisionBlock[] | null;
}
export interface VisionTextAnnotation {
  pages?: VisionPage[] | null;
  text?: string | null;
}
/** One image's answer in a batch: its text, or its own error. */
export interface VisionImageResponse {
  fullTextAnnotation?: VisionTextAnnotation | null;
  error?: { code?: number | null; message?: string | null } | null;
}

/** What follows a word: a space, nothing (scripts written without spaces), or the end of its line. */
type After = 'space' | 'none' | 'line' | 'hyphen';

// Vision's TextAnnotation.DetectedBreak.BreakType, by name and by number.
const BREAKS: Record<string, After> = {
  SPACE: 'space',
  SURE_SPACE: 'space',
  EOL_SURE_SPACE: 'line',
  HYPHEN: 'hyphen',
  LINE_BREAK: 'line',
  '1': 'space',
  '2': 'space',
  '3': 'line',
  '4': 'hyphen',
  '5': 'line',
};

interface ReadWord {
  text: string;
  rect: Rect;
  /** 0..100 */
  confidence: number | undefined;
  after: After;
  /** The word's writing direction leans less than ~17° from horizontal. */
  horizontal: boolean;
}

export type Grouping = 'line' | 'paragraph';

export interface ReadOptions {
  /** Multiplies Vision's coordinates into frame pixels (>1 when the frame was sent downscaled). */
  scale: number;
  /** One detection per line (cut at wide gaps), or one per paragraph (a caption, for translation). */
  grouping: Grouping;
}

export interface VisionText {
  detections: Detection[];
  words: Word[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function points(box: VisionBox | null | undefined, scale: number): Point[] {
  return (box?.vertices ?? []).map((v) => ({ x: Math.round((v.x ?? 0) * scale), y: Math.round((v.y ?? 0) * scale) }));
}

function readWord(word: VisionWord, scale: number): ReadWord | null {
  const symbols = word.symbols ?? [];
  const text = symbols.map((s) => s.text ?? '').join('').trim();
  const quad = points(word.boundingBox, scale);
  if (text === '' || quad.length === 0) return null;
  const last = symbols.at(-1)?.property?.detectedBreak?.type;
  // Vision orders a word's vertices from its own top-left, whatever the rotation: the first edge is its baseline's direction.
  const [a, b] = quad;
  const dx = b ? b.x - a!.x : 1;
  const dy = b ? b.y - a!.y : 0;
  return {
    text,
    rect: boundsOf(quad),
    confidence: typeof word.confidence === 'number' ? word.confidence * 100 : undefined,
    after: last === undefined || last === null ? 'none' : (BREAKS[String(last)] ?? 'none'),
    horizontal: dx > 0 && Math.abs(dy) <= 0.3 * dx,
  };
}

/** The text of words read in order, each followed by what Vision saw after it; line ends become spaces. */
function joinWords(words: readonly ReadWord[]): string {
  let text = '';
  words.forEach((w, i) => {
    text += w.text;
    if (i === words.length - 1) return;
    if (w.after === 'space' || w.after === 'line') text += ' ';
    // A hyphen at a line end joins the word's two halves: "exam-" + "ple".
  });
  return text;
}

/** A paragraph's words cut into lines where Vision saw a line end. */
function linesOf(words: readonly ReadWord[]): ReadWord[][] {
  const lines: ReadWord[][] = [];
  let line: ReadWord[] = [];
  for (const w of words) {
    line.push(w);
    if (w.after === 'line' || w.after === 'hyphen') {
      lines.push(line);
      line = [];
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

function toWord(w: ReadWord): Word {
  return { text: w.text, vertices: rectVertices(w.rect), ...(w.confidence !== undefined ? { confidence: round1(w.confidence) } : {}) };
}

function toDetection(words: readonly ReadWord[], blockType: string, lineText?: string): Detection {
  const rect = boundsOf(words.flatMap((w) => rectVertices(w.rect)));
  const confidences = words.map((w) => w.confidence).filter((c): c is number => c !== undefined);
  return {
    text: lineText ?? joinWords(words),
    vertices: rectVertices(rect),
    area: rect.w * rect.h,
    ...(confidences.length > 0 ? { confidence: round1(mean(confidences)) } : {}),
    blockType,
    words: words.map(toWord),
  };
}

/** A line's runs: cut at gaps wider than 1.5 line heights (the Basic engine's rule), when the line is horizontal. */
function runsOf(line: ReadWord[]): ReadWord[][] {
  if (!line.every((w) => w.horizontal)) return [line];
  return splitAtWideGaps(line, (w) => w.rect);
}

/** Reading order: top to bottom, then left to right among boxes on one row. */
function readingOrder(a: Detection, b: Detection): number {
  const ra = boundsOf(a.vertices);
  const rb = boundsOf(b.vertices);
  return Math.abs(ra.y - rb.y) > Math.min(ra.h, rb.h) / 2 ? ra.y - rb.y : ra.x - rb.x;
}

/** Maps one image's full-text annotation to detections and words. An image without text gives none. */
export function readVisionText(annotation: VisionTextAnnotation | null | undefined, opts: ReadOptions): VisionText {
  const detections: Detection[] = [];
  for (const page of annotation?.pages ?? []) {
    for (const block of page.blocks ?? []) {
      for (const paragraph of block.paragraphs ?? []) {
        const words = (paragraph.words ?? []).map((w) => readWord(w, opts.scale)).filter((w): w is ReadWord => w !== null);
        if (words.length === 0) continue;
        if (opts.grouping === 'paragraph') {
          detections.push(toDetection(words, 'PARAGRAPH'));
          continue;
        }
        for (const line of linesOf(words)) {
          for (const run of runsOf(line)) detections.push(toDetection(run, 'LINE', joinWords(run) + (run.at(-1)?.after === 'hyphen' ? '-' : '')));
        }
      }
    }
  }
  detections.sort(readingOrder);
  return { detections, words: detections.flatMap((d) => d.words ?? []) };
}
