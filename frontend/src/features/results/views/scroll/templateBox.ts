import { clamp, type Rect } from '@frametext/text-analysis';

/*
 * The purple template box, kept in 0..1 of the frame so it fits any picture size. Moving and resizing keep it
 * inside the frame and no smaller than the spec's minimum (4% of the width, 5% of the height).
 */

export const MIN_BOX = { w: 0.04, h: 0.05 } as const;
/** Where the box starts: a wide band across the middle, for the user to move onto one list item. */
export const DEFAULT_TEMPLATE_BOX: Rect = { x: 0.05, y: 0.4, w: 0.9, h: 0.2 };
/** One arrow key press moves or resizes by this share of the frame. */
export const KEY_STEP = 0.01;

export type Corner = 'nw' | 'ne' | 'sw' | 'se';
export const CORNERS: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

interface Point {
  x: number;
  y: number;
}

/** Rounds away float noise (0.1 + 0.2) so the box stays on clean values. */
const tidy = (v: number) => Math.round(v * 1e6) / 1e6;

/** The box made to fit: at least the minimum size, no larger than the frame, wholly inside it. */
export function fitBox(box: Rect): Rect {
  const w = clamp(box.w, MIN_BOX.w, 1);
  const h = clamp(box.h, MIN_BOX.h, 1);
  return { x: tidy(clamp(box.x, 0, 1 - w)), y: tidy(clamp(box.y, 0, 1 - h)), w: tidy(w), h: tidy(h) };
}

/** The box moved by (dx, dy), stopping at the frame's edges. */
export function moveBox(box: Rect, dx: number, dy: number): Rect {
  return fitBox({ ...box, x: box.x + dx, y: box.y + dy });
}

/** The box between two points (a drag on the frame), at least the minimum size, inside the frame. */
export function boxFromPoints(a: Point, b: Point): Rect {
  const left = clamp(Math.min(a.x, b.x), 0, 1);
  const top = clamp(Math.min(a.y, b.y), 0, 1);
  const right = clamp(Math.max(a.x, b.x), 0, 1);
  const bottom = clamp(Math.max(a.y, b.y), 0, 1);
  return fitBox({ x: left, y: top, w: right - left, h: bottom - top });
}

/** The box with `corner` dragged to `point`; the opposite corner stays where it is. */
export function resizeBox(box: Rect, corner: Corner, point: Point): Rect {
  const fixedX = corner.endsWith('w') ? box.x + box.w : box.x;
  const fixedY = corner.startsWith('n') ? box.y + box.h : box.y;
  const x = clamp(point.x, 0, 1);
  const y = clamp(point.y, 0, 1);
  // Never past the fixed corner: the box keeps its minimum size on the side the corner belongs to.
  const left = corner.endsWith('w') ? Math.min(x, fixedX - MIN_BOX.w) : fixedX;
  const right = corner.endsWith('w') ? fixedX : Math.max(x, fixedX + MIN_BOX.w);
  const top = corner.startsWith('n') ? Math.min(y, fixedY - MIN_BOX.h) : fixedY;
  const bottom = corner.startsWith('n') ? fixedY : Math.max(y, fixedY + MIN_BOX.h);
  return fitBox({ x: left, y: top, w: right - left, h: bottom - top });
}

const ARROWS: Record<string, Point> = { ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 }, ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 } };

/**
 * The box after an arrow key: arrows move it; with Shift they resize it from its bottom-right corner (right and
 * down grow it, left and up shrink it). Null for any other key.
 */
export function boxAfterKey(box: Rect, key: string, shift: boolean): Rect | null {
  const arrow = ARROWS[key];
  if (!arrow) return null;
  if (shift) return fitBox({ ...box, w: box.w + arrow.x * KEY_STEP, h: box.h + arrow.y * KEY_STEP });
  return moveBox(box, arrow.x * KEY_STEP, arrow.y * KEY_STEP);
}

