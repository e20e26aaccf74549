// `npm run bench`: builds, then runs every benchmark and prints its figures and ratios. Never part of `npm test`.
// Timings vary with what else the machine does: compare figures from the same run (each benchmark measures its
// baseline alongside).
import { provision } from './lib/provision.mjs';
import { fail, log } from './lib/sh.mjs';

try {
  await provision();
} catch (err) {
  fail(`setup failed: ${err.message}`);
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

// `npm run bench -- tracking` runs only the tracking benchmark (a few seconds; no OCR, no services); `-- pipeline` only
// the OCR and pipeline benchmarks against the anchor; `-- scale` only the scale benchmark; `-- sevenseg` only the
// seven-segment displays; `-- corpus [categories]` only the independent corpus (`--items` lists each file); `-- cjk` only the
// Chinese captions (PP-OCR against Tesseract); `-- cpu [charger|telemetry]` (only when asked) where one upload's CPU goes, process by process.
const only = process.argv[2];
if (!only || only === 'tracking') {
  log('block tracking of the Numerical view: 360 frames of 100 detections...');
  const { runTrackingBench, printTrackingBench } = await import('../packages/text-analysis/bench/tracking.bench.mjs');
  printTrackingBench(runTrackingBench());
}

if (!only || only === 'pipeline') {
  log('OCR recognizer: 60 generated 720p frames of white captions and numbers over a moving picture...');
  const { runOcrBench } = await import('../services/ocr-tesseract/dist/bench/ocr-bench.js');
  const { benchRounds } = await import('../packages/sample-media/dist/index.js');
  const ocr = await runOcrBench({ count: 60, rounds: benchRounds(process.env) });
  console.log(`\nOCR recognizer vs bare tesseract on every core, same ${ocr.frames} frames (${ocr.width}x${ocr.height}), ${ocr.concurrency} worker processes`);
  console.log(`    throughput  ours ${ocr.pipeline.framesPerSecond} frames/s   bare ${ocr.bare.framesPerSecond} frames/s   ratio ${ocr.throughputRatio.toFixed(2)}x (target >= 1.20x; median of ${ocr.ratios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`    accuracy    ours ${pct(ocr.pipeline.accuracy)} (lowest round)   bare ${pct(ocr.bare.accuracy)} of ${ocr.pipeline.valuesTotal} known values (target ours >= 95% where bare < 50%)`);
  console.log(`    second pass on the white mask ran on ${pct(ocr.pipeline.maskPassShare)} of frames`);

  await sevenSegmentBench();

  const { benchPipeline, printPipeline } = await import('../bench/pipeline.mjs');
  log('whole pipeline through the API (about two minutes)...');
  printPipeline(await benchPipeline());
}

if (only === 'sevenseg') await sevenSegmentBench();

if (!only || only === 'corpus') {
  const { benchCorpus, printCorpus } = await import('../bench/corpus.mjs');
  log('independent corpus: screens, receipts, pages, subtitles and seven-segment photos from public repositories...');
  printCorpus(await benchCorpus({ only: process.argv.slice(3).find((a) => !a.startsWith('--')) }), { items: process.argv.includes('--items') });
}

async function sevenSegmentBench() {
  log('seven-segment displays: 60 generated 720p frames of LED and LCD displays with labels...');
  const { runSevenSegmentBench, printSevenSegmentBench } = await import('../services/ocr-tesseract/dist/bench/seven-segment-bench.js');
  printSevenSegmentBench(await runSevenSegmentBench());
  const { runSevenSegCorpus, printSevenSegCorpus, runLoneDigits, printLoneDigits } = await import('../services/ocr-tesseract/dist/bench/sevenseg-corpus.js');
  printSevenSegCorpus(await runSevenSegCorpus());
  printLoneDigits(await runLoneDigits());
}

if (!only || only === 'cjk') {
  const { runCjkBench, printCjkBench } = await import('../services/ocr-tesseract/dist/bench/cjk-bench.js');
  log('Chinese captions: real subtitle clips of bench/corpus and two generated ones, PP-OCR against Tesseract (chi_sim)...');
  printCjkBench(await runCjkBench());
}

if (!only || only === 'scale') {
  const { benchScale, printScale } = await import('../bench/scale.mjs');
  log('scale: charger (240 frames) and telemetry (90) with 1 and 2 OCR workers, then two uploads at once with 1 and 2 frame-extraction processes...');
  printScale(await benchScale());
}

if (only === 'cpu') {
  const { benchCpu, printCpu, CPU_MEDIA } = await import('../bench/cpu.mjs');
  const media = process.argv[3] ?? 'charger';
  if (!CPU_MEDIA[media]) fail(`bench cpu: no video called ${media} (${Object.keys(CPU_MEDIA).join(', ')})`);
  log(`CPU by process: the ${media} video through the product, once to warm up, then twice measured...`);
  printCpu(await benchCpu({ media }));
}
