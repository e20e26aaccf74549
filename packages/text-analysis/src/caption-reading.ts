import { boundsOf, mostlyInside, normaliseConfidence, type Rect, type TextBlock } from './geometry.js';
import { groupIntoRows, rectInPixels } from './region-text.js';
import { captionCues, frameInterval, type CaptionCue } from './subtitles.js';
import { filterBlocks, type BlockFilters } from './viewer-filters.js';

/*
 * A caption box read for subtitles: the caption's own lines, without what a busy picture behind it adds. OCR of a
 * caption over a moving background glues specks, edges and signs onto the caption as short, unsure "words"
 * ("*,", "ess", "Ly") and reads stray marks above and below it. Word by word (each word keeps its box and
 * confidence), a reading keeps:
 * - words with at least half their area inside the box (a descender or a line's end poking out still counts) that
 *   hold a letter or a digit (a lone "*", "—" or "“" is a speck, not a word);
 * - read with at least CAPTION_MIN_CONFIDENCE (words without a confidence pass);
 * - on rows as tall as the caption's letters: a row whose tallest word is under CAPTION_MIN_ROW_HEIGHT of the
 *   caption height (the median height of the confidently read longer words of every frame) is background;
 * - not a short unsure word at either end of a row (CAPTION_EDGE_MAX_CHARS characters or fewer, under
 *   CAPTION_EDGE_CONFIDENCE), nor one cut off from the row by a gap wider than CAPTION_MAX_GAP caption heights;
 * - rows with at least two letters left, without a quote mark at either end that nothing pairs with.
 */

export const CAPTION_MIN_CONFIDENCE = 60;
export const CAPTION_MIN_ROW_HEIGHT = 0.65;
export const CAPTION_EDGE_MAX_CHARS = 2;
export const CAPTION_EDGE_CONFIDENCE = 80;
export const CAPTION_MAX_GAP = 1.5;
/** Words read at least this sure, with three letters or more, set the caption height. */
const HEIGHT_CONFIDENCE = 85;

export interface CaptionWord extends TextBlock {
  rect: Rect;
  /** 0..100; undefined when the engine gave none. */
  sureness?: number;
}

/** One frame's caption: its lines, top to bottom, and how sure OCR was of them (0..100). */
export interface CaptionReading {
  lines: string[];
  /** The mean confidence of the words kept (to one decimal); undefined when none carried one. */
  confidence?: number;
}

const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;
const hasLetterOrDigit = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * The words of the blocks that lie mostly inside `box`. A block without words counts as one word, and so does a
 * translated block (its words are the ones read, in the original language).
 */
export function wordsInside(blocks: readonly TextBlock[], box: Rect): CaptionWord[] {
  const words: CaptionWord[] = [];
  for (const block of blocks) {
    const parts = block.words?.length && block.originalText === undefined ? block.words : [block];
    for (const part of parts) {
      if (part.vertices.length === 0 || part.text.trim() === '') continue;
      const rect = boundsOf(part.vertices);
      // A word belongs to the box when at least half its area is inside: one poking slightly out is not dropped.
      if (!mostlyInside(box, rect)) continue;
      words.push({ text: part.text.trim(), vertices: part.vertices, rect, sureness: part.confidence === undefined ? undefined : normaliseConfidence(part.confidence) });
    }
  }
  return words;
}

const sureEnough = (w: CaptionWord, min: number) => w.sureness === undefined || w.sureness >= min;

/**
 * The height of the caption's letters in pixels over many frames: the median height of the words read with at
 * least 85% confidence that have three letters or more (of any word, when none is that sure); 0 with no words.
 */
export function captionHeight(frames: readonly (readonly CaptionWord[])[]): number {
  const all = frames.flat();
  const sure = all.filter((w) => letters(w.text) >= 3 && sureEnough(w, HEIGHT_CONFIDENCE));
  const heights = (sure.length ? sure : all).map((w) => w.rect.h).sort((a, b) => a - b);
  if (heights.length === 0) return 0;
  const mid = Math.floor(heights.length / 2);
  return heights.length % 2 ? heights[mid]! : (heights[mid - 1]! + heights[mid]!) / 2;
}

/** Drops unsure short words and words cut off by a wide gap from both ends of a row (left to right). */
function trimEdges(row: CaptionWord[], height: number): CaptionWord[] {
  const edgeJunk = (w: CaptionWord) => w.text.length <= CAPTION_EDGE_MAX_CHARS && !sureEnough(w, CAPTION_EDGE_CONFIDENCE);
  const gap = (a: CaptionWord, b: CaptionWord) => b.rect.x - (a.rect.x + a.rect.w);
  const maxGap = CAPTION_MAX_GAP * height;
  let from = 0;
  let to = row.length;
  while (to - from > 0) {
    if (edgeJunk(row[from]!) || (to - from > 1 && gap(row[from]!, row[from + 1]!) > maxGap)) from++;
    else if (edgeJunk(row[to - 1]!) || (to - from > 1 && gap(row[to - 2]!, row[to - 1]!) > maxGap)) to--;
    else break;
  }
  return row.slice(from, to);
}

const OPENING = /^[‘“'"„«]+/u;
const CLOSING = /[’”'"»]+$/u;

/** A quote mark at the start of a line that no mark closes (or at its end that none opens) is a speck read as one. */
function withoutStrayQuotes(line: string): string {
  let text = line;
  if (OPENING.test(text) && !/[’”'"»]/u.test(text.replace(OPENING, ''))) text = text.replace(OPENING, '');
  if (CLOSING.test(text) && !/[‘“'"„«]/u.test(text.replace(CLOSING, ''))) text = text.replace(CLOSING, '');
  return text;
}

/** One frame's caption from the words in its box, given the caption height (captionHeight over the upload). */
export function captionReading(words: readonly CaptionWord[], height: number): CaptionReading {
  const kept = words.filter((w) => hasLetterOrDigit(w.text) && sureEnough(w, CAPTION_MIN_CONFIDENCE));
  const lines: string[] = [];
  const sureness: number[] = [];
  for (const row of groupIntoRows(kept)) {
    if (height > 0 && Math.max(...row.blocks.map((w) => w.rect.h)) < CAPTION_MIN_ROW_HEIGHT * height) continue;
    const trimmed = trimEdges(row.blocks, height);
    const text = withoutStrayQuotes(trimmed.map((w) => w.text).join(' '));
    if (letters(text) < 2) continue;
    lines.push(text);
    for (const w of trimmed) if (w.sureness !== undefined) sureness.push(w.sureness);
  }
  if (sureness.length === 0) return { lines };
  return { lines, confidence: Math.round((sureness.reduce((a, b) => a + b, 0) / sureness.length) * 10) / 10 };
}

/** A frame as the Region view has it: its time (null for photos), its blocks, and its size in pixels when known. */
export interface CaptionSourceFrame {
  t: number | null;
  blocks: readonly TextBlock[];
  space: { width: number; height: number } | null;
}

/**
 * The subtitle cues of one box (normalised to 0..1 of the frame) over an upload's frames, after the viewer's
 * filters: each frame's caption read as above, then made into cues (captionCues). Frames without a time (photos)
 * are taken one second apart, in order; a frame whose size is unknown reads as blank.
 */
export function captionCuesInBox(frames: readonly CaptionSourceFrame[], box: Rect, filters?: BlockFilters): CaptionCue[] {
  const words = frames.map((f) => (f.space ? wordsInside(filters ? filterBlocks(f.blocks, filters) : f.blocks, rectInPixels(box, f.space.width, f.space.height)) : []));
  const height = captionHeight(words);
  const timed = frames.map((f, i) => {
    const reading = captionReading(words[i]!, height);
    return { t: f.t ?? i, text: reading.lines.join('\n'), ...(reading.confidence === undefined ? {} : { confidence: reading.confidence }) };
  });
  return captionCues(timed, frameInterval(timed.map((f) => f.t)));
}
