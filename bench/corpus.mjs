// `npm run bench -- corpus`: the Basic engine against bare Tesseract on bench/corpus, media from public repositories
// with the truth they publish (bench/corpus/README.md), by category. Needs the services built (npm run build).
import { storedFrameOf } from '../services/frame-extraction/dist/domain/frame-images.js';
import { imageLimits } from '../services/frame-extraction/dist/domain/context.js';
import { configSchema as extractionConfig } from '../services/frame-extraction/dist/config.js';
import { loadCorpus, runCorpusBench } from '../services/ocr-tesseract/dist/bench/corpus.js';
import { configSchema as ocrConfig } from '../services/ocr-tesseract/dist/config.js';

const pct = (found, total) => (total ? `${((100 * found) / total).toFixed(1)} %` : '-');

/** Runs the corpus bench; `only` limits it to the categories named (comma-separated). */
export async function benchCorpus({ only, log = () => undefined } = {}) {
  const limits = imageLimits(extractionConfig.parse({}));
  const wanted = only ? new Set(only.split(',')) : undefined;
  const items = (await loadCorpus()).filter((i) => !wanted || wanted.has(i.category));
  return runCorpusBench({
    items,
    config: ocrConfig.parse(process.env),
    storedFrame: (image, kind) => storedFrameOf(image, kind === 'video' ? 'video' : 'photo', limits),
    log,
  });
}

export function printCorpus(figures, { items = false } = {}) {
  if (items) {
    console.log('\ncategory/file                                    ours     bare    missed by ours');
    for (const i of figures.items) {
      console.log(`${`${i.category}/${i.file}`.padEnd(48)} ${`${i.ours}/${i.total}`.padEnd(8)} ${`${i.bare}/${i.total}`.padEnd(7)} ${i.missed.slice(0, 4).map((m) => JSON.stringify(m)).join(' ')}`);
    }
  }
  console.log('\nIndependent corpus (bench/corpus): share of the published strings each one\'s text holds');
  console.log('category          items  strings  Basic engine  bare Tesseract');
  for (const [category, t] of Object.entries(figures.byCategory)) {
    console.log(`${category.padEnd(18)}${String(t.items).padEnd(7)}${String(t.total).padEnd(9)}${pct(t.ours, t.total).padEnd(14)}${pct(t.bare, t.total)}`);
  }
  console.log(`time: Basic engine ${figures.seconds.ours} s, bare Tesseract ${figures.seconds.bare} s (items one at a time, each item's frames on every core)`);
}
