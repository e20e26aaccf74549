import { boundsOf, normaliseConfidence, type Point, type Rect, type TextBlock } from './geometry.js';
import { splitAtWideGaps } from './text-runs.js';

/*
 * The layout of a frame's text as the Scroll view compares it: rows of text (lines), each made of horizontal
 * segments (a title, a price at the right...). OCR engines cut text differently (Tesseract gives lines with their
 * words, others words or paragraphs), so the layout is rebuilt from the boxes rather than taken from the engine.
 */

/** A recognised word inside a block, when the engine gives them (Tesseract does). */
export interface LayoutWord {
  text: string;
  vertices: readonly Point[];
  confidence?: number;
}

/** A text block that may carry its words (structurally the contracts' Detection). */
export interface LayoutBlock extends TextBlock {
  words?: readonly LayoutWord[];
}

/** A run of text on a line with no wide gap inside it. */
export interface LayoutSegment {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The OCR's mean confidence of its words, 0..100, when the engine gives one. */
  confidence?: number;
}

/** One row of text: its segments from left to right and the box around them. */
export interface LayoutLine {
  text: string;
  segments: LayoutSegment[];
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Vertical centre. */
  centreY: number;
  /** The OCR's mean confidence of its segments, 0..100, when the engine gives one. */
  confidence?: number;
}

/** Pieces whose vertical centres are within this share of their average height (and at least 6 px) share a row. */
export const LAYOUT_ROW_TOLERANCE = 0.6;
export const LAYOUT_ROW_TOLERANCE_MIN_PX = 6;

interface Piece {
  text: string;
  rect: Rect;
  confidence?: number;
}

/** The mean of the confidences given, or nothing when none is. */
function meanConfidence(values: readonly (number | undefined)[]): { confidence?: number } {
  const given = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return given.length === 0 ? {} : { confidence: given.reduce((sum, v) => sum + v, 0) / given.length };
}

/** The smallest pieces of text with a box: a block's words when it has them, otherwise the block itself. */
function piecesOf(blocks: readonly LayoutBlock[]): Piece[] {
  const out: Piece[] = [];
  for (const block of blocks) {
    const words = block.words?.filter((w) => w.text.trim() !== '' && w.vertices.length > 0) ?? [];
    const parts: readonly LayoutWord[] = words.length > 0 ? words : [block];
    for (const p of parts) {
      const text = p.text.trim();
      const confidence = p.confidence ?? block.confidence;
      if (text !== '' && p.vertices.length > 0) out.push({ text, rect: boundsOf(p.vertices), ...(confidence === undefined ? {} : { confidence: normaliseConfidence(confidence) }) });
    }
  }
  return out;
}

function segmentOf(pieces: readonly Piece[]): LayoutSegment {
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const { rect } of pieces) {
    left = Math.min(left, rect.x);
    right = Math.max(right, rect.x + rect.w);
    top = Math.min(top, rect.y);
    bottom = Math.max(bottom, rect.y + rect.h);
  }
  return { text: pieces.map((p) => p.text).join(' '), left, right, top, bottom, ...meanConfidence(pieces.map((p) => p.confidence)) };
}

/** A row's pieces (left to right) as segments, cut at wide gaps (text-runs.ts). */
const segmentsOf = (row: readonly Piece[]): LayoutSegment[] => splitAtWideGaps(row, (p) => p.rect).map(segmentOf);

/** Builds a line from segments (already left to right). */
export function lineOf(segments: readonly LayoutSegment[]): LayoutLine {
  const top = Math.min(...segments.map((s) => s.top));
  const bottom = Math.max(...segments.map((s) => s.bottom));
  return {
    text: segments.map((s) => s.text).join(' '),
    segments: [...segments],
    left: Math.min(...segments.map((s) => s.left)),
    right: Math.max(...segments.map((s) => s.right)),
    top,
    bottom,
    centreY: (top + bottom) / 2,
    ...meanConfidence(segments.map((s) => s.confidence)),
  };
}

/**
 * A frame's text as lines, top to bottom. Pieces (words, or blocks without words) join the row whose running
 * centre is within 0.6 of the average piece height (at least 6 px) of their own centre; each row is then cut into
 * segments at wide gaps. Blank pieces are left out.
 */
export function layoutLines(blocks: readonly LayoutBlock[]): LayoutLine[] {
  const pieces = piecesOf(blocks);
  if (pieces.length === 0) return [];
  const averageHeight = pieces.reduce((sum, p) => sum + p.rect.h, 0) / pieces.length;
  const tolerance = Math.max(LAYOUT_ROW_TOLERANCE_MIN_PX, LAYOUT_ROW_TOLERANCE * averageHeight);
  const centre = (p: Piece) => p.rect.y + p.rect.h / 2;
  const sorted = [...pieces].sort((a, b) => centre(a) - centre(b) || a.rect.x - b.rect.x);

  const rows: { pieces: Piece[]; centre: number }[] = [];
  for (const piece of sorted) {
    const row = rows[rows.length - 1];
    const c = centre(piece);
    if (row && Math.abs(c - row.centre) <= tolerance) {
      row.pieces.push(piece);
      row.centre += (c - row.centre) / row.pieces.length;
    } else {
      rows.push({ pieces: [piece], centre: c });
    }
  }
  return rows.map((row) => lineOf(segmentsOf(row.pieces.sort((a, b) => a.rect.x - b.rect.x))));
}

/**
 * The part of each line that lies in the column from `left` to `right`: segments whose horizontal centre falls in
 * it; lines left without segments are dropped. The Scroll view scans one column (the template's) down a frame.
 */
export function linesInColumn(lines: readonly LayoutLine[], left: number, right: number): LayoutLine[] {
  const out: LayoutLine[] = [];
  for (const line of lines) {
    const kept = line.segments.filter((s) => {
      const c = (s.left + s.right) / 2;
      return c >= left && c <= right;
    });
    if (kept.length === line.segments.length) out.push(line);
    else if (kept.length > 0) out.push(lineOf(kept));
  }
  return out;
}
