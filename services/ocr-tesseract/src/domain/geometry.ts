import { isImplausibleWordBox, rectVertices, type Rect } from '@frametext/text-analysis';
import type { Vertex } from '@frametext/contracts';

/** An axis-aligned box in image pixels, as Tesseract reports it. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The box in text-analysis's terms. */
export const rectOf = (b: Box): Rect => ({ x: b.left, y: b.top, w: b.width, h: b.height });

/** The box's 4 corners, clockwise from the top-left (the contracts' vertices). */
export function boxVertices(b: Box): Vertex[] {
  return rectVertices(rectOf(b));
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

/** A box grown by `by` on every side, kept inside the frame. */
export function grow(b: Box, by: number, width: number, height: number): Box {
  const left = Math.max(0, b.left - by);
  const top = Math.max(0, b.top - by);
  return { left, top, width: Math.min(width, b.left + b.width + by) - left, height: Math.min(height, b.top + b.height + by) - top };
}

/** A box that cannot be text on this image (text-analysis's isImplausibleWordBox, in Tesseract's box terms). */
export function isAbsurdBox(b: Box, imageWidth: number, imageHeight: number): boolean {
  return isImplausibleWordBox(rectOf(b), imageWidth, imageHeight);
}
