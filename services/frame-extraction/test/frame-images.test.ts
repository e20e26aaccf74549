import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import { imageLimits } from '../src/domain/context.js';
import { encodeUploadedImage } from '../src/domain/frame-images.js';
import { ocrText } from './helpers.js';

const limits = imageLimits(configSchema.parse({}));

describe('an uploaded image', () => {
  it('keeps text drawn only by its transparency readable (laid on white, as Tesseract reads the PNG)', async () => {
    // Black everywhere; only the alpha channel draws the words, as icons and exported charts often are.
    const text = await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="420" height="90"><text x="20" y="62" font-family="DejaVu Sans" font-size="48">Total 42.50</text></svg>'))
      .extractChannel(3)
      .toBuffer();
    const black = sharp({ create: { width: 420, height: 90, channels: 3, background: '#000' } });
    const png = await black.joinChannel(text).png().toBuffer();
    expect((await sharp(png).metadata()).channels).toBe(4);

    const { image } = await encodeUploadedImage(png, 'Photo 1', limits);
    expect(await ocrText(image)).toContain('Total 42.50');
  });
});
