import { boundsOf, rectContains, type Rect, type TextBlock } from './geometry.js';

/*
 * The Region view's reading of a box: the text blocks wholly inside it, grouped into rows so the box reads in
 * lines, left to right and top to bottom.
 */

/** Blocks whose centres are this many average block heights apart, or less, share a row. */
export const ROW_TOLERANCE_FACTOR = 0.6;
/** ...but never less than this many pixels apart (tiny text still forms rows). */
export const ROW_TOLERANCE_MIN_PX = 6;

export interface TextRow<T extends TextBlock = TextBlock> {
  /** The row's blocks from left to right. */
  blocks: T[];
  /** Their texts joined by single spaces. */
  text: string;
}

/** A box given in 0..1 of the image, placed on an image of `width` x `height` pixels. */
export function rectInPixels(norm: Rect, width: number, height: number): Rect {
  return { x: norm.x * width, y: norm.y * height, w: norm.w * width, h: norm.h * height };
}

/** The blocks lying wholly inside `box` (same coordinates as their vertices); a block cut by the edge is left out. */
export function blocksInside<T extends TextBlock>(blocks: readonly T[], box: Rect): T[] {
  return blocks.filter((block) => block.vertices.length > 0 && rectContains(box, boundsOf(block.vertices)));
}

/**
 * Groups blocks into rows, top to bottom. A block joins the row above when its vertical centre is within the
 * tolerance (0.6 of the average block height, at least 6 px) of that row's mean centre; each row is then read left
 * to right. Blocks with blank text are dropped.
 */
export function groupIntoRows<T extends TextBlock>(blocks: readonly T[]): TextRow<T>[] {
  const placed = blocks.filter((b) => b.text.trim() !== '' && b.vertices.length > 0).map((block) => ({ block, rect: boundsOf(block.vertices) }));
  if (placed.length === 0) return [];
  const averageHeight = placed.reduce((sum, p) => sum + p.rect.h, 0) / placed.length;
  const tolerance = Math.max(ROW_TOLERANCE_MIN_PX, ROW_TOLERANCE_FACTOR * averageHeight);
  const centreY = (r: Rect) => r.y + r.h / 2;
  placed.sort((a, b) => centreY(a.rect) - centreY(b.rect) || a.rect.x - b.rect.x);

  const rows: { members: typeof placed; centre: number }[] = [];
  for (const p of placed) {
    const row = rows[rows.length - 1];
    const cy = centreY(p.rect);
    if (row && Math.abs(cy - row.centre) <= tolerance) {
      row.members.push(p);
      row.centre += (cy - row.centre) / row.members.length;
    } else {
      rows.push({ members: [p], centre: cy });
    }
  }
  return rows.map(({ members }) => {
    const ordered = members.sort((a, b) => a.rect.x - b.rect.x).map((m) => m.block);
    return { blocks: ordered, text: ordered.map((b) => b.text.trim()).join(' ') };
  });
}

/** The lines of text a box holds: its blocks grouped into rows, each row's text. */
export function linesInBox(blocks: readonly TextBlock[], box: Rect): string[] {
  return groupIntoRows(blocksInside(blocks, box)).map((row) => row.text);
}
