import type { Vertex } from '@frametext/contracts';

/** An axis-aligned box in image pixels, as Tesseract reports it. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The box's 4 corners, clockwise from the top-left (the contracts' vertices). */
export function boxVertices(b: Box): Vertex[] {
  const right = b.left + b.width;
  const bottom = b.top + b.height;
  return [
    { x: b.left, y: b.top },
    { x: right, y: b.top },
    { x: right, y: bottom },
    { x: b.left, y: bottom },
  ];
}

export function boxArea(b: Box): number {
  return Math.max(0, b.width) * Math.max(0, b.height);
}

export function unionBox(boxes: readonly Box[]): Box {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}

export function intersectionArea(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

export function iou(a: Box, b: Box): number {
  const inter = intersectionArea(a, b);
  const union = boxArea(a) + boxArea(b) - inter;
  return union > 0 ? inter / union : 0;
}

/** Share of the smaller box covered by the other: 1 when one box holds the other. */
export function containment(a: Box, b: Box): number {
  const smaller = Math.min(boxArea(a), boxArea(b));
  return smaller > 0 ? intersectionArea(a, b) / smaller : 0;
}

/** A box that cannot be text on this image: empty, outside it, or larger than it. */
export function isAbsurdBox(b: Box, imageWidth: number, imageHeight: number): boolean {
  if (![b.left, b.top, b.width, b.height].every(Number.isFinite)) return true;
  if (b.width <= 0 || b.height <= 0) return true;
  if (b.left < 0 || b.top < 0 || b.left + b.width > imageWidth || b.top + b.height > imageHeight) return true;
  // A whole-frame "word" is Tesseract reading a border or a texture, not text.
  return b.width >= imageWidth * 0.98 && b.height >= imageHeight * 0.9;
}
