import { clamp, type Rect } from './geometry.js';

/*
 * The Region view's selection boxes: up to four, each kept normalised (0..1 of the image's width and height) so
 * the same box fits frames of any size. Pure functions; the view keeps the list in its state.
 */

export type BoxId = 0 | 1 | 2 | 3;
export type Corner = 'nw' | 'ne' | 'sw' | 'se';

export interface SelectionBox {
  id: BoxId;
  enabled: boolean;
  /** Null until the box is first enabled. */
  norm: Rect | null;
  colour: string;
  name: 'Green' | 'Blue' | 'Red' | 'Yellow';
}

export const MIN_BOX_WIDTH = 0.04;
export const MIN_BOX_HEIGHT = 0.05;
/** What one arrow key press moves or resizes a box by. */
export const KEY_STEP = 0.01;

const SPECS = [
  { name: 'Green', colour: '#16a34a' },
  { name: 'Blue', colour: '#2563eb' },
  { name: 'Red', colour: '#dc2626' },
  { name: 'Yellow', colour: '#eab308' },
] as const;

/**
 * Where a box starts: two thirds of the width, centred, 0.22 of the height, its bottom near the image's bottom;
 * each next box sits one box higher, so the four never cover each other.
 */
export function defaultRect(id: BoxId): Rect {
  const w = 2 / 3;
  const h = 0.22;
  return { x: (1 - w) / 2, y: 0.96 - h - id * (h + 0.02), w, h };
}

/**
 * The first box is on, at `first` (where the upload's captions are: text-zones' defaultCaptionBox) or where captions
 * usually are; the others wait to be enabled.
 */
export function initialBoxes(first: Rect = defaultRect(0)): SelectionBox[] {
  return SPECS.map((s, i) => {
    const id = i as BoxId;
    return { id, ...s, enabled: id === 0, norm: id === 0 ? fitRect(first) : null };
  });
}

/** Keeps a box at least the minimum size and wholly inside the image. */
export function fitRect(r: Rect): Rect {
  const w = clamp(r.w, MIN_BOX_WIDTH, 1);
  const h = clamp(r.h, MIN_BOX_HEIGHT, 1);
  return { x: clamp(r.x, 0, 1 - w), y: clamp(r.y, 0, 1 - h), w, h };
}

/** The box moved by dx, dy, stopping at the image's edges (its size never changes). */
export function moveRect(r: Rect, dx: number, dy: number): Rect {
  return { ...r, x: clamp(r.x + dx, 0, 1 - r.w), y: clamp(r.y + dy, 0, 1 - r.h) };
}

/** The box with one corner dragged by dx, dy; the opposite corner stays put, and the minimum size holds. */
export function resizeRect(r: Rect, corner: Corner, dx: number, dy: number): Rect {
  let left = r.x;
  let top = r.y;
  let right = r.x + r.w;
  let bottom = r.y + r.h;
  if (corner === 'nw' || corner === 'sw') left = clamp(left + dx, 0, right - MIN_BOX_WIDTH);
  else right = clamp(right + dx, left + MIN_BOX_WIDTH, 1);
  if (corner === 'nw' || corner === 'ne') top = clamp(top + dy, 0, bottom - MIN_BOX_HEIGHT);
  else bottom = clamp(bottom + dy, top + MIN_BOX_HEIGHT, 1);
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** A box drawn from one point to another (any direction), fitted inside the image. */
export function rectBetween(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  const x = clamp(Math.min(a.x, b.x), 0, 1);
  const y = clamp(Math.min(a.y, b.y), 0, 1);
  return fitRect({ x, y, w: clamp(Math.max(a.x, b.x), 0, 1) - x, h: clamp(Math.max(a.y, b.y), 0, 1) - y });
}

/**
 * An arrow key on a box: moves it by one step, or with Shift resizes it (right and down grow it, left and up
 * shrink it). Null for any other key.
 */
export function rectAfterKey(r: Rect, key: string, shift: boolean): Rect | null {
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (!d) return null;
  const [dx, dy] = [d[0]! * KEY_STEP, d[1]! * KEY_STEP];
  return shift ? resizeRect(r, 'se', dx, dy) : moveRect(r, dx, dy);
}

/** Turns a box on (giving it the default place if it never had one) or off. */
export function setEnabled(boxes: readonly SelectionBox[], id: BoxId, enabled: boolean): SelectionBox[] {
  return boxes.map((b) => (b.id === id ? { ...b, enabled, norm: enabled && !b.norm ? defaultRect(id) : b.norm } : b));
}

export function setRect(boxes: readonly SelectionBox[], id: BoxId, norm: Rect): SelectionBox[] {
  return boxes.map((b) => (b.id === id ? { ...b, enabled: true, norm: fitRect(norm) } : b));
}

/** Which box is selected after `boxes` changed: the same one while it is enabled, otherwise the first enabled one. */
export function selectionAfter(boxes: readonly SelectionBox[], selected: BoxId): BoxId {
  if (boxes.find((b) => b.id === selected)?.enabled) return selected;
  return boxes.find((b) => b.enabled)?.id ?? selected;
}

/** The enabled boxes that have a place, in id order. */
export const activeBoxes = (boxes: readonly SelectionBox[]) => boxes.filter((b): b is SelectionBox & { norm: Rect } => b.enabled && b.norm !== null);
