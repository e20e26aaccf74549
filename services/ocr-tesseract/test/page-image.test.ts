import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blankPage, pageImage, statedDpi } from '../src/domain/page-image.js';

describe('the images Tesseract reads', () => {
  it('carry the resolution a frame states, in a TIFF whose pixels follow its header, and are PGM or PPM otherwise', async () => {
    const pixels = Buffer.from(Array.from({ length: 6 * 4 * 3 }, (_, i) => (i * 7) % 256));
    const tiff = pageImage(3, 6, 4, pixels, 300);
    const meta = await sharp(tiff).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels, meta.density]).toEqual(['tiff', 6, 4, 3, 300]);
    expect(await sharp(tiff).raw().toBuffer()).toEqual(pixels);
    expect(pageImage(1, 6, 4, Buffer.alloc(24), undefined).subarray(0, 11).toString('latin1')).toBe('P5\n6 4\n255\n');

    const grey = blankPage(1, 5, 2, 150, 255);
    grey.pixels[0] = 0;
    expect([(await sharp(grey.image).metadata()).channels, (await sharp(grey.image).metadata()).density]).toEqual([1, 150]);
    expect(await sharp(grey.image).extractChannel(0).raw().toBuffer()).toEqual(Buffer.from([0, 255, 255, 255, 255, 255, 255, 255, 255, 255]));
  });

  it('takes a stated resolution only when it says something: not the 72 dpi most encoders write by default', () => {
    expect(statedDpi(300)).toBe(300);
    expect(statedDpi(72)).toBeUndefined();
    expect(statedDpi(undefined)).toBeUndefined();
    expect(statedDpi(9600)).toBeUndefined();
  });
});
