/** A corner point in image pixels. */
export interface Point {
  x: number;
  y: number;
}

/** An axis-aligned rectangle: left, top, width, height (pixels, or 0..1 when normalised). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A block of text as the OCR engines give it. Structurally the same as the contracts' Detection, kept separate so
 * this package has no dependencies.
 */
export interface TextBlock {
  text: string;
  /** Corner points in image pixels (4 of them from every engine). */
  vertices: readonly Point[];
  /** px²; computed from the vertices when missing. */
  area?: number;
  /** 0..100, or 0..1 from engines that give fractions (see normaliseConfidence). */
  confidence?: number;
  /** Text before translation, when the upload was translated. */
  originalText?: string;
  /** The block's words with their own boxes and confidences, when the engine gives them (Tesseract does). */
  words?: readonly { text: string; vertices: readonly Point[]; confidence?: number }[];
}

/** The smallest rectangle holding every vertex (an empty rectangle at 0,0 for no vertices). */
export function boundsOf(vertices: readonly Point[]): Rect {
  if (vertices.length === 0) return { x: 0, y: 0, w: 0, h: 0 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of vertices) {
    if (p.x < minX) minX = p.x;
    if (p.y < minY) minY = p.y;
    if (p.x > maxX) maxX = p.x;
    if (p.y > maxY) maxY = p.y;
  }
  return { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
}

/** An axis-aligned rectangle by its four edges (a union of boxes is kept this way, free of float noise from w and h). */
export interface Edges {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * A rectangle's 4 corners clockwise from the top-left: the vertices every engine reports. The one builder of
 * corners: from left, top, width and height, or from the edges as they are.
 */
export function rectVertices(rect: Rect | Edges): Point[] {
  const { left, top, right, bottom } = 'w' in rect ? { left: rect.x, top: rect.y, right: rect.x + rect.w, bottom: rect.y + rect.h } : rect;
  return [
    { x: left, y: top },
    { x: right, y: top },
    { x: right, y: bottom },
    { x: left, y: bottom },
  ];
}

export function centreOf(rect: Rect): Point {
  return { x: rect.x + rect.w / 2, y: rect.y + rect.h / 2 };
}

/** The block's area in px²: its own `area` when given, otherwise its bounding rectangle's. */
export function areaOf(block: TextBlock): number {
  if (block.area !== undefined && Number.isFinite(block.area)) return block.area;
  const r = boundsOf(block.vertices);
  return r.w * r.h;
}

/** Confidence on the 0..100 scale: values under 1 are fractions and are multiplied by 100 (the spec's rule). */
export function normaliseConfidence(confidence: number): number {
  return confidence < 1 ? confidence * 100 : confidence;
}

/** True when `inner` lies wholly inside `outer` (edges touching count as inside). */
export function rectContains(outer: Rect, inner: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

/**
 * True when at least half of `inner`'s area lies inside `outer` (for a rectangle without area: its centre), so a word
 * poking slightly out of a box still belongs to it.
 */
export function mostlyInside(outer: Rect, inner: Rect): boolean {
  const w = Math.min(outer.x + outer.w, inner.x + inner.w) - Math.max(outer.x, inner.x);
  const h = Math.min(outer.y + outer.h, inner.y + inner.h) - Math.max(outer.y, inner.y);
  const area = inner.w * inner.h;
  if (area <= 0) return rectContains(outer, { ...centreOf(inner), w: 0, h: 0 });
  return w > 0 && h > 0 && w * h >= area / 2;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
