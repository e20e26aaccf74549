import sharp, { type OutputInfo } from 'sharp';

/** An image Tesseract gets on stdin, with the size of the frame it came from. */
export interface PreparedFrame {
  width: number;
  height: number;
  /** The frame in grey as binary PGM (Tesseract reads it without decoding a JPEG again). */
  grey: Buffer;
  /** Black where the frame is near-white (every channel >= threshold), white elsewhere, as PGM. */
  whiteMask: Buffer;
  /** Share of the frame's pixels that are near-white (0-1). */
  whiteShare: number;
}

/** The bytes are not an image we can read (corrupt, truncated, not an image, too many pixels). */
export class FrameUnreadableError extends Error {
  constructor(detail: string) {
    super(`the frame could not be decoded as an image: ${detail}`);
    this.name = 'FrameUnreadableError';
  }
}

function pgm(width: number, height: number, pixels: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii'), pixels]);
}

/**
 * Decodes a frame once and derives both images the passes read. The white mask is how white captions and
 * numbers over a busy, moving picture become black print on a blank page: Tesseract reads those reliably,
 * while on the original it mostly sees texture.
 */
export async function prepareFrame(image: Buffer, opts: { whiteThreshold: number; maxPixels: number }): Promise<PreparedFrame> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(image, { limitInputPixels: opts.maxPixels, failOn: 'error' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new FrameUnreadableError(err instanceof Error ? err.message : String(err));
  }
  const { data, info } = decoded;
  const { width, height, channels } = info;
  const pixels = width * height;
  const grey = Buffer.allocUnsafe(pixels);
  const mask = Buffer.allocUnsafe(pixels);
  const t = opts.whiteThreshold;
  let white = 0;
  for (let p = 0, i = 0; p < pixels; p++, i += channels) {
    const r = data[i]!;
    const g = channels >= 3 ? data[i + 1]! : r;
    const b = channels >= 3 ? data[i + 2]! : r;
    grey[p] = (r * 54 + g * 183 + b * 19) >> 8;
    const near = r >= t && g >= t && b >= t;
    mask[p] = near ? 0 : 255;
    if (near) white++;
  }
  // Busy pictures leave near-white specks in the mask, which Tesseract takes for text around the real words;
  // a 3x3 median removes specks and keeps strokes (a 5x5 one read slightly more but cost 10x the time).
  const despeckled = await sharp(mask, { raw: { width, height, channels: 1 } }).median(3).extractChannel(0).raw().toBuffer();
  return { width, height, grey: pgm(width, height, grey), whiteMask: pgm(width, height, despeckled), whiteShare: pixels > 0 ? white / pixels : 0 };
}
