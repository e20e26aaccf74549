import type { Box } from '../geometry.js';

/**
 * PP-OCR's text detector (DB, "differentiable binarization") as FrameText runs it: the frame is scaled so that its
 * longer side is at most DETECT_MAX_SIDE and both sides are multiples of 32, and the model answers, for every
 * pixel, how likely it is to be inside text. The text regions are the connected areas of pixels above
 * PIXEL_THRESHOLD; an area whose mean likelihood is under BOX_THRESHOLD is dropped, and each kept one is grown by
 * the margin DB's training shrank it by (UNCLIP_RATIO × area / perimeter). Captions and screen text run level, so
 * each region is the upright rectangle around it.
 */
export const DETECT_MAX_SIDE = 960;
export const PIXEL_THRESHOLD = 0.3;
export const BOX_THRESHOLD = 0.6;
export const UNCLIP_RATIO = 1.5;
/** Regions smaller than this (pixels of the probability map) are specks, not text. */
const MIN_REGION_PIXELS = 9;

export const DETECT_NORM = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] } as const;

/** The size the detector reads a frame at: longer side ≤ maxSide, each side a multiple of 32 (at least 32). */
export function detectionSize(width: number, height: number, maxSide = DETECT_MAX_SIDE): { width: number; height: number } {
  const ratio = Math.min(1, maxSide / Math.max(width, height));
  const to32 = (v: number) => Math.max(32, Math.round((v * ratio) / 32) * 32);
  return { width: to32(width), height: to32(height) };
}

/** A text region found by the detector, in the frame's pixels, with its mean likelihood (0-1). */
export interface TextRegion extends Box {
  score: number;
}

/**
 * The text regions of a probability map (`map`, `width` × `height`, values 0-1), in the pixels of a frame of
 * `frameWidth` × `frameHeight` the map was computed for: connected pixels above PIXEL_THRESHOLD (8 neighbours), kept
 * when their mean is at least BOX_THRESHOLD, each grown by the DB margin and clipped to the frame.
 */
export function textRegions(map: Float32Array, width: number, height: number, frameWidth: number, frameHeight: number): TextRegion[] {
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const regions: TextRegion[] = [];
  const sx = frameWidth / width;
  const sy = frameHeight / height;
  let next = 0;
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== 0 || map[start]! <= PIXEL_THRESHOLD) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let minX = width;
    let minY = height;
    let maxX = -1;
    let maxY = -1;
    let sum = 0;
    let count = 0;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      sum += map[at]!;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const n = ny * width + nx;
          if (label[n] === 0 && map[n]! > PIXEL_THRESHOLD) {
            label[n] = next;
            stack.push(n);
          }
        }
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const score = sum / count;
    if (count < MIN_REGION_PIXELS || Math.min(w, h) < 3 || score < BOX_THRESHOLD) continue;
    const margin = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const left = Math.max(0, Math.floor((minX - margin) * sx));
    const top = Math.max(0, Math.floor((minY - margin) * sy));
    const right = Math.min(frameWidth, Math.ceil((maxX + 1 + margin) * sx));
    const bottom = Math.min(frameHeight, Math.ceil((maxY + 1 + margin) * sy));
    regions.push({ left, top, width: right - left, height: bottom - top, score });
  }
  return regions;
}
