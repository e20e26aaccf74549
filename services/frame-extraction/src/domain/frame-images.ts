import sharp, { type Metadata, type Sharp } from 'sharp';
import type { RawFrame } from '../data/ppm-frames.js';
import { MediaError } from './media-error.js';

/** How a stored frame is encoded: JPEG for decoded video frames, the lossless or original encoding for photos. */
export type FrameFormat = 'jpeg' | 'png';

export interface ImageLimits {
  maxDimension: number;
  maxInputPixels: number;
  jpegQuality: number;
  thumbnailWidth: number;
}

export interface EncodedFrame {
  /** The frame as OCR reads it, in `format`. */
  image: Buffer;
  format: FrameFormat;
  /** A small JPEG for lists and timelines. */
  thumbnail: Buffer;
  width: number;
  height: number;
}

/** Width of the greyscale samples slide detection compares. */
export const SLIDE_SAMPLE_WIDTH = 320;

function fromRaw(frame: RawFrame, limits: ImageLimits): Sharp {
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 }, limitInputPixels: limits.maxInputPixels });
}

/**
 * The stored frame is what OCR reads, so its colours keep full resolution (4:4:4): JPEG's usual half-resolution
 * colour blurs the edges of text that differs from its background by hue more than brightness. On the phone-filmed
 * instrument screen (yellow readings on blue) the Basic engine found 93.8 % of the values in 4:2:0 frames and 95.4 %
 * in 4:4:4 ones, for frames about a quarter larger. Huffman tables are not optimised per frame: that halves the
 * encoding time (10.7 ms to 4.8 ms a 720p frame) for files about 12 % larger. The thumbnail is made from the same
 * pixels at the same time, not from the JPEG, each from a pipeline of its own (sharp's clone() copies its input).
 */
async function encode(image: () => Sharp, limits: ImageLimits, format: FrameFormat = 'jpeg'): Promise<EncodedFrame> {
  const encoded = format === 'png' ? image().png({ compressionLevel: 4 }) : image().jpeg({ quality: limits.jpegQuality, mozjpeg: false, optimiseCoding: false, chromaSubsampling: '4:4:4' });
  const [{ data, info }, thumbnail] = await Promise.all([encoded.toBuffer({ resolveWithObject: true }), makeThumbnail(image(), limits)]);
  return { image: data, format, thumbnail, width: info.width, height: info.height };
}

const makeThumbnail = (image: Sharp, limits: ImageLimits) => image.resize({ width: limits.thumbnailWidth, withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();

/** A decoded video frame as the stored JPEG and its thumbnail. */
export function encodeRawFrame(frame: RawFrame, limits: ImageLimits): Promise<EncodedFrame> {
  return encode(() => fromRaw(frame, limits), limits);
}

/** A downscaled greyscale copy of a frame, for slide detection. */
export async function greySample(frame: RawFrame, limits: ImageLimits): Promise<Uint8Array> {
  return fromRaw(frame, limits).resize({ width: SLIDE_SAMPLE_WIDTH }).greyscale().raw().toBuffer();
}

/**
 * An uploaded image (photo or browser-cut frame) checked and stored as OCR will read it, losing nothing of its text: a
 * JPEG that is upright as it is keeps its own bytes; any other image is turned upright (EXIF orientation) with
 * transparent pixels laid on white, as Tesseract lays them, and stored as PNG. Encoding a photo or a screenshot again
 * as JPEG blurs small print: Tesseract found 156 of 172 published strings on the corpus's screenshots after it and 163
 * before (docs/benchmarks.md). Dimensions are read from the header first, so a decompression bomb is refused before
 * anything is decoded. `what` names the image in the failure reason ("Photo 3 (IMG_0042.jpg)").
 */
export async function encodeUploadedImage(bytes: Buffer, what: string, limits: ImageLimits): Promise<EncodedFrame> {
  if (bytes.length === 0) throw new MediaError(`${what} could not be read: the file is empty.`);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new MediaError(`${what} could not be read: it is not a PNG or JPEG image we can decode.`, { cause: err });
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) throw new MediaError(`${what} could not be read: it has no picture in it.`);
  if (width > limits.maxDimension || height > limits.maxDimension || width * height > limits.maxInputPixels) {
    throw new MediaError(`${what} is too large to process (${width} x ${height} pixels); images may be at most ${limits.maxDimension} pixels a side.`);
  }
  try {
    const decoded = () => sharp(bytes, { limitInputPixels: limits.maxInputPixels, failOn: 'error' });
    if (meta.format === 'jpeg' && (meta.orientation ?? 1) === 1) {
      // Decoded once in full, so damaged data is refused here rather than by OCR.
      const thumbnail = await makeThumbnail(decoded(), limits);
      return { image: bytes, format: 'jpeg', thumbnail, width, height };
    }
    return await encode(() => decoded().rotate().flatten({ background: '#ffffff' }), limits, 'png');
  } catch (err) {
    throw new MediaError(`${what} could not be read: the image data is damaged.`, { cause: err });
  }
}

/**
 * An image file as frame-extraction stores it for OCR: an uploaded photo as encodeUploadedImage stores it, or a
 * video's frame (a lossless image of its decoded pixels) as encodeRawFrame does. For the benchmarks and tests that
 * read media the way the product reads it.
 */
export async function storedFrameOf(file: Buffer, source: 'photo' | 'video', limits: ImageLimits): Promise<Buffer> {
  if (source === 'photo') return (await encodeUploadedImage(file, 'The image', limits)).image;
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (await encodeRawFrame({ data, width: info.width, height: info.height }, limits)).image;
}
