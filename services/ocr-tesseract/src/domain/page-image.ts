/*
 * The images Tesseract reads, written from raw pixels with no encoding: PGM (grey) or PPM (colour), or, when the
 * frame states its resolution, an uncompressed TIFF that carries it. Tesseract sizes its layout analysis and its noise
 * filters by the resolution: given none, it estimates one from the text, and on a receipt scanned at 300 dpi it then
 * read 1 of the 4 lines it read at 300. Either way the pixels follow the header, so callers can fill them in place.
 */

/** A resolution stated below this is the default most encoders write (72 dpi) and says nothing about the image. */
const CREDIBLE_DPI = { min: 100, max: 2400 };

/** The resolution to pass to Tesseract: the image's own, when it states a credible one. */
export function statedDpi(density: number | undefined): number | undefined {
  return density !== undefined && density >= CREDIBLE_DPI.min && density <= CREDIBLE_DPI.max ? Math.round(density) : undefined;
}

export type Channels = 1 | 3;

/** Where a TIFF's pixels start: its header, its 12 tags, and their values (bits per sample, two resolutions). */
const TIFF_PIXELS_AT = 180;

function tiffHeader(channels: Channels, width: number, height: number, dpi: number): Buffer {
  const b = Buffer.alloc(TIFF_PIXELS_AT);
  b.write('II', 0, 'latin1');
  b.writeUInt16LE(42, 2);
  b.writeUInt32LE(8, 4);
  const SHORT = 3;
  const LONG = 4;
  const RATIONAL = 5;
  const tags: [tag: number, type: number, count: number, value: number][] = [
    [256, LONG, 1, width],
    [257, LONG, 1, height],
    [258, SHORT, channels, channels === 1 ? 8 : 158],
    [259, SHORT, 1, 1], // no compression
    [262, SHORT, 1, channels === 1 ? 1 : 2], // black is zero, or RGB
    [273, LONG, 1, TIFF_PIXELS_AT],
    [277, SHORT, 1, channels],
    [278, LONG, 1, height],
    [279, LONG, 1, width * height * channels],
    [282, RATIONAL, 1, 164],
    [283, RATIONAL, 1, 172],
    [296, SHORT, 1, 2], // inches
  ];
  b.writeUInt16LE(tags.length, 8);
  tags.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    b.writeUInt16LE(tag, at);
    b.writeUInt16LE(type, at + 2);
    b.writeUInt32LE(count, at + 4);
    if (type === SHORT && count === 1) b.writeUInt16LE(value, at + 8);
    else b.writeUInt32LE(value, at + 8);
  });
  // The next directory's offset (none) is already zero; then 8 bits for each of three samples, and the resolutions.
  for (let s = 0; s < 3; s++) b.writeUInt16LE(8, 158 + s * 2);
  for (const at of [164, 172]) {
    b.writeUInt32LE(dpi, at);
    b.writeUInt32LE(1, at + 4);
  }
  return b;
}

function header(channels: Channels, width: number, height: number, dpi: number | undefined): Buffer {
  if (dpi !== undefined) return tiffHeader(channels, width, height, dpi);
  return Buffer.from(`${channels === 1 ? 'P5' : 'P6'}\n${width} ${height}\n255\n`, 'ascii');
}

/** Pixels (one byte a sample, row by row) as an image Tesseract reads. */
export function pageImage(channels: Channels, width: number, height: number, pixels: Buffer, dpi?: number): Buffer {
  return Buffer.concat([header(channels, width, height, dpi), pixels]);
}

/** An image whose pixels the caller fills in place (`pixels`), so they are not copied behind a header afterwards. */
export function blankPage(channels: Channels, width: number, height: number, dpi?: number, fill?: number): { image: Buffer; pixels: Buffer } {
  const head = header(channels, width, height, dpi);
  const size = head.length + width * height * channels;
  const image = fill === undefined ? Buffer.allocUnsafe(size) : Buffer.alloc(size, fill);
  head.copy(image);
  return { image, pixels: image.subarray(head.length) };
}
