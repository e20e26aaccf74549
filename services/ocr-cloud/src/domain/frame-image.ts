import sharp, { type OutputInfo } from 'sharp';

/** The frame is not an image we can read (or is too large to be one we should). */
export class FrameUnreadableError extends Error {}

export interface ImageLimits {
  maxPixels: number;
  /** Larger files are sent downscaled. */
  maxBytes: number;
  /** Longer sides are sent downscaled. */
  maxSide: number;
}

/** A frame as it goes to Vision: the bytes to send, the frame's own size, and how to scale Vision's boxes back. */
export interface PreparedImage {
  content: Buffer;
  width: number;
  height: number;
  /** Frame pixels per pixel of `content` (1 unless downscaled). */
  scale: number;
}

/**
 * Reads the frame's size from its header (refusing what is not an image, and decompression bombs, before Vision is
 * paid to look at it) and downscales a frame too large for a Vision request; Vision's boxes are scaled back.
 */
export async function prepareImage(bytes: Buffer, limits: ImageLimits): Promise<PreparedImage> {
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch {
    throw new FrameUnreadableError('not an image');
  }
  if (width === 0 || height === 0 || width * height > limits.maxPixels) throw new FrameUnreadableError(`unusable size ${width} x ${height}`);
  if (bytes.length <= limits.maxBytes && Math.max(width, height) <= limits.maxSide) return { content: bytes, width, height, scale: 1 };

  // Smaller sides until the JPEG fits (text stays readable well below 4096 px).
  for (let side = Math.min(limits.maxSide, Math.max(width, height)); ; side = Math.round(side * 0.75)) {
    let resized: { data: Buffer; info: OutputInfo };
    try {
      resized = await sharp(bytes, { limitInputPixels: limits.maxPixels })
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85 })
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw new FrameUnreadableError('the image data is damaged');
    }
    if (resized.data.length <= limits.maxBytes || side <= 640) return { content: resized.data, width, height, scale: width / resized.info.width };
  }
}
