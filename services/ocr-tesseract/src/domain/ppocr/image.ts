import sharp from 'sharp';
import { FrameUnreadableError } from '../preprocess.js';
import type { Box } from '../geometry.js';

/** A decoded frame: RGB, 3 bytes a pixel, rows top to bottom. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/** The frame's pixels, decoded once (sharp, with the worker's pixel limit): an image sharp cannot read is unreadable. */
export async function decodeRgb(image: Buffer, maxPixels: number): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(image, { limitInputPixels: maxPixels, failOn: 'error' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 colour channels, got ${info.channels}`);
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw new FrameUnreadableError(err instanceof Error ? err.message : String(err));
  }
}


/**
 * The rectangle `from` of `image`, resized (bilinear) to `width` × `height` and written into `out` as planar
 * floats in PP-OCR's channel order, blue, green, red (its models were trained on OpenCV's BGR images), each value
 * `(v / 255 - mean) / std` with the mean and spread of its channel (in that order). `out` holds `channels × outWidth
 * × height` values, row length `outWidth` (≥ width): the columns past `width` are left as they are (padding).
 */
export function toPlanarBgr(
  image: RgbImage,
  from: Box,
  width: number,
  height: number,
  norm: { mean: readonly number[]; std: readonly number[] },
  out: Float32Array,
  outWidth = width,
): void {
  const plane = outWidth * height;
  const sx = from.width / width;
  const sy = from.height / height;
  const scaleOf = [0, 1, 2].map((c) => 1 / (255 * norm.std[c]!));
  const offsetOf = [0, 1, 2].map((c) => norm.mean[c]! / norm.std[c]!);
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(maxY, Math.max(0, from.top + (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(maxY, y0 + 1);
    const wy = fy - y0;
    const row0 = y0 * image.width;
    const row1 = y1 * image.width;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(maxX, Math.max(0, from.left + (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(maxX, x0 + 1);
      const wx = fx - x0;
      const a = (row0 + x0) * 3;
      const b = (row0 + x1) * 3;
      const c = (row1 + x0) * 3;
      const d = (row1 + x1) * 3;
      const at = y * outWidth + x;
      for (let ch = 0; ch < 3; ch++) {
        // Plane 0 is blue: the image's channel 2.
        const src = 2 - ch;
        const top = image.data[a + src]! + (image.data[b + src]! - image.data[a + src]!) * wx;
        const bottom = image.data[c + src]! + (image.data[d + src]! - image.data[c + src]!) * wx;
        out[ch * plane + at] = (top + (bottom - top) * wy) * scaleOf[ch]! - offsetOf[ch]!;
      }
    }
  }
}
