import sharp, { type OutputInfo } from 'sharp';
import { blankPage, pageImage, statedDpi } from './page-image.js';
import { errorText } from '@frametext/service-kit';

/**
 * A decoded frame and the images the passes read. What only some frames need (the bare image, the mask, each
 * pixel's brightest channel) is made the first time it is asked for: over a picture only the mask is read, on a
 * plain screen whose mask pass does not pay only the bare image, and the segment reader runs on few frames.
 */
export interface PreparedFrame {
  readonly width: number;
  readonly height: number;
  /**
   * What the bare pass reads, as raw grey or colour pixels behind a header (page-image.ts: PGM or PPM, or TIFF with
   * the frame's resolution), which Tesseract reads without decoding a JPEG again: `barePixels`
   * as PGM, or, for a colourful frame over a picture (`bareInColour`), the frame in colour, which Tesseract
   * thresholds channel by channel itself.
   */
  readonly bare: Buffer;
  /**
   * Whether `bare` is in colour: the frame is colourful (at least COLOURFUL_SHARE of it saturated) and has no plain
   * background to measure its text against.
   */
  readonly bareInColour: boolean;
  /** The decoded RGB bytes, 3 a pixel, no header (for crops of the bare image). */
  readonly colourPixels: Buffer;
  /** The frame in grey, one byte a pixel with no header (to compare frames). */
  readonly greyPixels: Buffer;
  /**
   * The grey the bare pass reads, dark text on a light page:
   * - On a colourful screen whose page is itself a colour, each pixel's distance from the page's colour (its
   *   largest channel difference), inverted. Text of any colour stands out from the page, whatever its brightness:
   *   yellow and white on blue, or red on a green of the same brightness, where a luminance grey flattens it. On a
   *   white or grey page the luminance grey is kept: a screenshot's coloured font smoothing makes it colourful too, and
   *   the distance (its darkest channel) thickens its print until Tesseract's layout merges lines.
   * - Otherwise `greyPixels`, inverted when the frame's most common grey is dark (a dashboard's or a terminal's
   *   dark page). Tesseract reads each line as dark on light first and tries it inverted only when unsure, so light
   *   text on a dark page costs two readings a line; inverted first, it costs one: a third less Tesseract time on the
   *   charger screen, with the same text.
   */
  readonly barePixels: Buffer;
  /** Each pixel's brightest channel, one byte a pixel (lit LED strokes of any colour stand out in it). */
  readonly brightPixels: Buffer;
  /** Black where the frame is near-white (every channel >= threshold), white elsewhere, as PGM. */
  readonly whiteMask: Buffer;
  /** The same mask, one byte a pixel with no header (to compare frames and stack its rectangles). */
  readonly maskPixels: Buffer;
  /** Share of the frame's pixels that are near-white (0-1). */
  readonly whiteShare: number;
  /**
   * Share of the frame (sampled) within a few grey levels of its most common one (0-1): near 1 on a plain
   * background (a dashboard, a slide), low on a picture.
   */
  readonly plainShare: number;
  /** The resolution the image states, when credible (statedDpi): Tesseract is told it with every image of the frame. */
  readonly dpi?: number;
  /**
   * Frame pixels to one pixel of the image as uploaded (readingScale): above 1 for a small image read enlarged,
   * below 1 for a huge one read reduced. Boxes found on the frame are divided by it.
   */
  readonly scale: number;
}

/** The same bytes as a plain Uint8Array. */
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.length);

/** A frame at least this share of which is one grey level (give or take a few) has a plain background. */
export const PLAIN_BACKGROUND = 0.5;

/** The bytes are not an image we can read (corrupt, truncated, not an image, too many pixels). */
export class FrameUnreadableError extends Error {
  constructor(detail: string) {
    super(`the frame could not be decoded as an image: ${detail}`);
    this.name = 'FrameUnreadableError';
  }
}

/** A rectangle of the frame as the bare pass reads it: PPM from the RGB bytes when `bareInColour`, else PGM from `barePixels`. */
export function cropBare(frame: PreparedFrame, box: { left: number; top: number; width: number; height: number }): Buffer {
  const channels = frame.bareInColour ? 3 : 1;
  const pixels = frame.bareInColour ? frame.colourPixels : frame.barePixels;
  const out = Buffer.allocUnsafe(box.width * box.height * channels);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * frame.width + box.left) * channels;
    pixels.copy(out, y * box.width * channels, from, from + box.width * channels);
  }
  return pageImage(channels, box.width, box.height, out, frame.dpi);
}

/** White rows between the rectangles of a stacked mask image: Tesseract keeps lines this far apart as separate lines. */
const STACK_GAP = 32;

/** Where each rectangle of a stacked image sits in it (its top row). */
export interface StackedArea {
  area: { left: number; top: number; width: number; height: number };
  top: number;
}

/**
 * Rectangles of the white mask stacked top to bottom on one white page, as one image: Tesseract reads them in one
 * go, with what every line shows of the text's size to go by (a lone `144 kW` cut out on its own came back as
 * `144 kw` on some frames, as part of a page with the screen's other values it did not).
 */
export function stackMaskAreas(frame: PreparedFrame, areas: StackedArea['area'][]): { image: Buffer; placed: StackedArea[] } {
  const width = Math.max(...areas.map((a) => a.width));
  const placed: StackedArea[] = [];
  let height = 0;
  for (const area of areas) {
    placed.push({ area, top: height });
    height += area.height + STACK_GAP;
  }
  height -= STACK_GAP;
  const out = Buffer.alloc(width * height, 255);
  for (const { area, top } of placed) {
    for (let y = 0; y < area.height; y++) {
      const from = (area.top + y) * frame.width + area.left;
      frame.maskPixels.copy(out, (top + y) * width, from, from + area.width);
    }
  }
  return { image: pageImage(1, width, height, out, frame.dpi), placed };
}

/** A pixel whose channels spread by more than this is saturated (a colour, not a grey). */
const SATURATED_SPREAD = 48;
/** A frame with at least this share of saturated pixels is colourful (see barePixels and bareInColour). */
export const COLOURFUL_SHARE = 0.05;

/**
 * Decodes a frame once and derives the images the passes read. The white mask is how white captions and
 * numbers over a busy, moving picture become black print on a blank page: Tesseract reads those reliably,
 * while on the original it mostly sees texture.
 */
export async function prepareFrame(image: Buffer, opts: { whiteThreshold: number; maxPixels: number; maxReadPixels?: number; enlargeSmall?: boolean }): Promise<PreparedFrame> {
  let decoded: { data: Buffer; info: OutputInfo };
  let density: number | undefined;
  let scale = 1;
  try {
    // One pipeline: its header gives the size and the stated resolution, then it decodes (scaled down if need be).
    const input = sharp(image, { limitInputPixels: opts.maxPixels, failOn: 'error' });
    const meta = await input.metadata();
    density = meta.density;
    scale = readingScale(meta.width ?? 0, meta.height ?? 0, opts.maxReadPixels);
    if (scale < 1) input.resize({ width: Math.max(1, Math.floor((meta.width ?? 0) * scale)), height: Math.max(1, Math.floor((meta.height ?? 0) * scale)), fit: 'fill' });
    decoded = await input.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new FrameUnreadableError(errorText(err));
  }
  const { data, info } = decoded;
  if (info.channels !== 3) throw new FrameUnreadableError(`expected 3 colour channels, got ${info.channels}`);
  const dpi = statedDpi(density);
  const frame = new DecodedFrame(data, info.width, info.height, opts.whiteThreshold, dpi === undefined ? undefined : statedDpi(dpi * scale), scale);
  const enlarge = opts.enlargeSmall && scale === 1 && frame.plainShare < PLAIN_BACKGROUND ? enlargement(frame.width, frame.height) : 1;
  if (enlarge === 1) return frame;
  // Enlarged from the pixels already decoded, not from the image again.
  const larger = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .resize({ width: info.width * enlarge, height: info.height * enlarge, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new DecodedFrame(larger.data, larger.info.width, larger.info.height, opts.whiteThreshold, dpi === undefined ? undefined : statedDpi(dpi * enlarge), enlarge);
}

/**
 * How much a frame is reduced before it is read: not at all up to `maxReadPixels`, else down to that many pixels.
 * The work Tesseract does grows with the pixels; print fine enough to need more is rarer than an image made to hold
 * a worker.
 */
export function readingScale(width: number, height: number, maxReadPixels: number | undefined): number {
  const pixels = width * height;
  return maxReadPixels === undefined || pixels <= maxReadPixels ? 1 : Math.sqrt(maxReadPixels / pixels);
}

/** A small picture is read enlarged toward this many pixels (a 720p frame's), ENLARGE_UP_TO times at most. */
const ENLARGE_TO_PIXELS = 1280 * 720;
const ENLARGE_UP_TO = 4;

/**
 * How much a small video's frame over a picture (no plain background) is enlarged before it is read: by a whole
 * factor toward a 720p frame's pixels (a 320x240 frame 3x, a 640x480 one 2x). Its captions are only a few pixels
 * high, and Tesseract, which thresholds the image before it reads, loses their thin strokes. Screens, pages and
 * photos are read at their size: enlarged, small screenshots and a small receipt photo gained some lines and lost as
 * many (docs/benchmarks.md).
 */
export function enlargement(width: number, height: number): number {
  const pixels = width * height;
  if (pixels <= 0) return 1;
  const factor = Math.min(ENLARGE_UP_TO, Math.round(Math.sqrt(ENLARGE_TO_PIXELS / pixels)));
  return factor >= 2 ? factor : 1;
}

/**
 * A decoded frame: grey, raw mask and the shares are made at once in one loop over the pixels; the rest on first use.
 * A pixel is near-white when its darkest channel reaches the threshold.
 */
class DecodedFrame implements PreparedFrame {
  readonly greyPixels: Buffer;
  readonly bareInColour: boolean;
  readonly whiteShare: number;
  readonly plainShare: number;
  private readonly page: { level: number; share: number };
  private readonly colourful: boolean;
  /** The grey frame as a PGM (its pixels are `greyPixels`). */
  private readonly grey: { image: Buffer; pixels: Buffer };
  /** Black where near-white, before the median. */
  private readonly rawMask: Buffer;
  private readonly cache: { colour?: Buffer; bareGrey?: { image: Buffer; pixels: Buffer }; bright?: Buffer; mask?: { image: Buffer; pixels: Buffer } } = {};

  constructor(
    readonly colourPixels: Buffer,
    readonly width: number,
    readonly height: number,
    threshold: number,
    readonly dpi: number | undefined,
    readonly scale: number,
  ) {
    const pixels = width * height;
    const grey = blankPage(1, width, height, dpi);
    const mask = Buffer.allocUnsafe(pixels);
    // Plain views in the loop: element access on a Buffer (a Uint8Array subclass) is slower.
    const data = bytes(colourPixels);
    const greyOut = bytes(grey.pixels);
    const maskOut = bytes(mask);
    let white = 0;
    let saturated = 0;
    for (let p = 0, i = 0; p < pixels; p++, i += 3) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      greyOut[p] = (r * 54 + g * 183 + b * 19) >> 8;
      const max = r > g ? (r > b ? r : b) : g > b ? g : b;
      const min = r < g ? (r < b ? r : b) : g < b ? g : b;
      if (max - min > SATURATED_SPREAD) saturated++;
      if (min >= threshold) {
        maskOut[p] = 0;
        white++;
      } else {
        maskOut[p] = 255;
      }
    }
    this.grey = grey;
    this.greyPixels = grey.pixels;
    this.rawMask = mask;
    this.colourful = pixels > 0 && saturated / pixels >= COLOURFUL_SHARE;
    this.whiteShare = pixels > 0 ? white / pixels : 0;
    this.page = pageGrey(grey.pixels);
    this.plainShare = this.page.share;
    this.bareInColour = this.colourful && this.plainShare < PLAIN_BACKGROUND;
  }

  /**
   * The grey the bare pass reads, as a PGM: each pixel's distance from the page's colour on a colourful frame whose
   * page is itself a colour, the grey inverted on a dark page, else the grey itself. Written in place behind the
   * PGM's header.
   */
  private get bareGrey(): { image: Buffer; pixels: Buffer } {
    if (this.cache.bareGrey) return this.cache.bareGrey;
    const page = this.colourful ? pageColour(this.colourPixels) : undefined;
    const colouredPage = page !== undefined && Math.max(...page) - Math.min(...page) > SATURATED_SPREAD;
    if (!colouredPage && this.page.level >= DARK_PAGE) return (this.cache.bareGrey = this.grey);
    const pgm = blankPage(1, this.width, this.height, this.dpi);
    if (colouredPage) distanceFromPage(this.colourPixels, page, pgm.pixels);
    else inverted(this.greyPixels, pgm.pixels);
    return (this.cache.bareGrey = pgm);
  }

  get barePixels(): Buffer {
    return this.bareGrey.pixels;
  }

  get bare(): Buffer {
    if (!this.bareInColour) return this.bareGrey.image;
    return (this.cache.colour ??= pageImage(3, this.width, this.height, this.colourPixels, this.dpi));
  }

  get brightPixels(): Buffer {
    if (this.cache.bright) return this.cache.bright;
    const data = this.colourPixels;
    const bright = Buffer.allocUnsafe(this.width * this.height);
    for (let p = 0, i = 0; p < bright.length; p++, i += 3) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      bright[p] = r > g ? (r > b ? r : b) : g > b ? g : b;
    }
    return (this.cache.bright = bright);
  }

  // Busy pictures leave near-white specks in the mask, which Tesseract takes for text around the real words;
  // a 3x3 median removes specks and keeps strokes (a 5x5 one read slightly more but cost 10x the time).
  private get mask(): { image: Buffer; pixels: Buffer } {
    if (this.cache.mask) return this.cache.mask;
    const out = blankPage(1, this.width, this.height, this.dpi, 255);
    median3x3Binary(this.rawMask, this.width, this.height, out.pixels);
    return (this.cache.mask = out);
  }

  get whiteMask(): Buffer {
    return this.mask.image;
  }

  get maskPixels(): Buffer {
    return this.mask.pixels;
  }
}

/** Grey levels either side of the most common one that still count as the background. */
const PLAIN_LEVELS = 8;

/** A page whose most common grey is below this is dark (light text on it). */
const DARK_PAGE = 128;

/** The frame's most common grey level (sampled), and the share of the frame within a few levels of it. */
function pageGrey(grey: Buffer): { level: number; share: number } {
  const { histogram, samples, peak } = sampledHistogram(grey, 0, 4);
  let near = 0;
  for (let v = Math.max(0, peak - PLAIN_LEVELS); v <= Math.min(255, peak + PLAIN_LEVELS); v++) near += histogram[v]!;
  return { level: peak, share: samples > 0 ? near / samples : 0 };
}

/** The histogram of every `step`th byte from `start`, and its most common level. */
function sampledHistogram(bytes: Buffer, start: number, step: number): { histogram: Uint32Array; samples: number; peak: number } {
  const histogram = new Uint32Array(256);
  let samples = 0;
  for (let i = start; i < bytes.length; i += step, samples++) histogram[bytes[i]!]!++;
  let peak = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[peak]!) peak = v;
  return { histogram, samples, peak };
}

/** The page's colour: each channel's most common level, sampled at every fourth pixel as pageGrey samples the grey. */
function pageColour(rgb: Buffer): [number, number, number] {
  return [0, 1, 2].map((channel) => sampledHistogram(rgb, channel, 12).peak) as [number, number, number];
}

/**
 * Each pixel's distance from the page's colour, inverted (the page white, text of any colour dark): the largest of
 * its three channel differences from the page's, into `out`.
 */
function distanceFromPage(rgb: Buffer, [pr, pg, pb]: [number, number, number], out: Buffer): void {
  for (let p = 0, i = 0; p < out.length; p++, i += 3) {
    const r = rgb[i]! - pr;
    const g = rgb[i + 1]! - pg;
    const b = rgb[i + 2]! - pb;
    const dr = r < 0 ? -r : r;
    const dg = g < 0 ? -g : g;
    const db = b < 0 ? -b : b;
    out[p] = 255 - (dr > dg ? (dr > db ? dr : db) : dg > db ? dg : db);
  }
}

/** `grey` inverted, into `out`. */
function inverted(grey: Buffer, out: Buffer): void {
  for (let p = 0; p < grey.length; p++) out[p] = 255 - grey[p]!;
}

/**
 * The 3x3 median of a black (0) and white (255) image: a pixel is black when at least 5 of the 9 around it are
 * (edges repeat the border pixel). Two running sums, and rows with no black pixel near them are white at once (most
 * of a frame's mask is blank): 3 ms for a 720p dashboard frame, against some 13 ms for a general median through sharp.
 * Written into `out`, which must come white (255) and the mask's size.
 */
export function median3x3Binary(maskImage: Buffer, width: number, height: number, out: Buffer = Buffer.alloc(width * height, 255)): Buffer {
  const mask = bytes(maskImage);
  const into = bytes(out);
  const inked = new Uint8Array(height);
  for (let y = 0; y < height; y++) inked[y] = mask.subarray(y * width, (y + 1) * width).indexOf(0) >= 0 ? 1 : 0;
  // Black pixels in each vertical run of three, per pixel of a row.
  const column = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const upY = Math.max(0, y - 1);
    const downY = Math.min(height - 1, y + 1);
    if (!inked[upY] && !inked[y] && !inked[downY]) continue;
    const up = upY * width;
    const row = y * width;
    const down = downY * width;
    for (let x = 0; x < width; x++) column[x] = (mask[up + x] === 0 ? 1 : 0) + (mask[row + x] === 0 ? 1 : 0) + (mask[down + x] === 0 ? 1 : 0);
    for (let x = 0; x < width; x++) {
      const black = column[Math.max(0, x - 1)]! + column[x]! + column[Math.min(width - 1, x + 1)]!;
      if (black >= 5) into[row + x] = 0;
    }
  }
  return out;
}
