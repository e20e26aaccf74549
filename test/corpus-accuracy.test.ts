// The Basic engine on bench/corpus, media from public repositories with the truth they publish (screenshots, receipts,
// pages, subtitled video, seven-segment photos): each category's count of published strings found may not fall.
// Tesseract reads a fixed image the same way every time, so each floor is a figure the engine reached; raise it when
// a change reads more (`npm run bench -- corpus` prints the figures, with bare Tesseract's beside them).
import { describe, expect, it } from 'vitest';
import { configSchema as extractionConfig } from '../services/frame-extraction/src/config.js';
import { imageLimits } from '../services/frame-extraction/src/domain/context.js';
import { storedFrameOf } from '../services/frame-extraction/src/domain/frame-images.js';
import { loadCorpus, runCorpusBench } from '../services/ocr-tesseract/bench/corpus.js';
import { configSchema as ocrConfig } from '../services/ocr-tesseract/src/config.js';

/** Published strings found per category; bare Tesseract's count on the same files in brackets. */
const FLOORS: Record<string, number> = {
  pages: 99, // of 120 (bare Tesseract 99)
  receipts: 153, // of 211 (153)
  screens: 163, // of 172 (163)
  sevenseg: 42, // of 55 (1)
  subtitles: 6, // of 14 (2)
};

describe('the Basic engine on media nobody here made', () => {
  it('finds at least as many of the published strings in each category as it did', { timeout: 600_000 }, async () => {
    const limits = imageLimits(extractionConfig.parse({}));
    const figures = await runCorpusBench({
      items: await loadCorpus(),
      config: ocrConfig.parse({}),
      storedFrame: (image, kind) => storedFrameOf(image, kind === 'video' ? 'video' : 'photo', limits),
      withBare: false,
    });
    const found = Object.fromEntries(Object.entries(figures.byCategory).map(([category, t]) => [category, t.ours]));
    expect(Object.keys(found).sort()).toEqual(Object.keys(FLOORS).sort());
    for (const [category, floor] of Object.entries(FLOORS)) expect(found[category], category).toBeGreaterThanOrEqual(floor);
  });
});
