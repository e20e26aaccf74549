import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { median3x3Binary, prepareFrame } from '../src/domain/preprocess.js';

/** The 3x3 majority, pixel by pixel, with the border repeated: what the mask's median must give. */
function naiveMedian(mask: Buffer, width: number, height: number): Buffer {
  const at = (x: number, y: number) => mask[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let black = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (at(x + dx, y + dy) === 0) black++;
      out[y * width + x] = black >= 5 ? 0 : 255;
    }
  }
  return out;
}

describe('the white mask median', () => {
  it('removes specks and keeps strokes exactly as a 3x3 majority does, blank rows and borders included', () => {
    const width = 61;
    const height = 47;
    const mask = Buffer.alloc(width * height, 255);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Specks everywhere but a blank band, and a thick stroke touching the top and left borders.
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((y < 15 || y > 25) && random() < 0.3) mask[y * width + x] = 0;
    for (let y = 0; y < 6; y++) for (let x = 0; x < 30; x++) mask[y * width + x] = 0;
    expect(median3x3Binary(mask, width, height).equals(naiveMedian(mask, width, height))).toBe(true);
  });
});

describe('a frame larger than the reading size', () => {
  it('is read scaled down to it, its shape and stated resolution scaled alike; a smaller one as it is', async () => {
    const png = (width: number, height: number, dpi?: number) => {
      const image = sharp({ create: { width, height, channels: 3, background: 'white' } });
      return (dpi ? image.withMetadata({ density: dpi }) : image).png().toBuffer();
    };
    const large = await prepareFrame(await png(6000, 4000, 600), { whiteThreshold: 200, maxPixels: 50_000_000, maxReadPixels: 16_000_000 });
    expect(large.width * large.height).toBeLessThanOrEqual(16_000_000);
    expect(large.width * large.height).toBeGreaterThan(15_900_000);
    expect(large.width / large.height).toBeCloseTo(1.5, 2);
    expect(large.dpi).toBe(Math.round(600 * (large.width / 6000)));
    const small = await prepareFrame(await png(1280, 720), { whiteThreshold: 200, maxPixels: 50_000_000, maxReadPixels: 16_000_000 });
    expect([small.width, small.height]).toEqual([1280, 720]);
  });
});
