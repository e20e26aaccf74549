// Scale benchmark: one upload of 240 frames read by one OCR worker process, then the same video again with two, on
// this machine. Each worker runs one Tesseract at a time (OCR_CONCURRENCY=1), so the second process is the only
// change: the speed-up says how well OCR workers scale out when the cores are there.
import { execFileSync } from 'node:child_process';
import { makeChargerVideo } from '@frametext/sample-media';
import { runThroughPipeline, withBenchStack } from './pipeline.mjs';

const SECONDS = 240;

/** Consumers of the OCR queue in the run's broker vhost, as RabbitMQ counts them. */
function ocrConsumers(vhost) {
  const out = execFileSync('rabbitmqctl', ['list_queues', '-p', vhost, '--quiet', '--no-table-headers', 'name', 'consumers']).toString();
  const line = out.split('\n').find((l) => l.split(/\s+/)[0] === 'ocr-tesseract');
  return line ? Number(line.split(/\s+/)[1]) : 0;
}

async function untilConsumers(vhost, n) {
  for (let i = 0; i < 600; i++) {
    if (ocrConsumers(vhost) >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the OCR queue never had ${n} consumers`);
}

export function benchScale() {
  return withBenchStack('bench_scale', { OCR_CONCURRENCY: '1' }, async ({ token, dir, running, vhost }) => {
    const video = await makeChargerVideo({ dir, seconds: SECONDS });
    const rows = [];
    for (const workers of [1, 2]) {
      if (workers > 1) running.addReplica('ocr-tesseract');
      await untilConsumers(vhost, workers);
      const run = await runThroughPipeline(token, video, 1);
      const frames = run.details.results.ocrResults.length;
      rows.push({ workers, frames, ocrSeconds: run.stages.ocrMs / 1000, totalSeconds: run.stages.totalMs / 1000, extractionSeconds: run.stages.extractionMs / 1000 });
    }
    return rows;
  });
}

export function printScale(rows) {
  const f = (n, d = 2) => n.toFixed(d);
  const [one, two] = rows;
  console.log(`\nScale: one upload of ${one.frames} frames (charger screen, 720p, 1 frame a second), OCR workers with one Tesseract each`);
  for (const r of rows) {
    console.log(`  ${r.workers} worker${r.workers > 1 ? 's' : ' '}   OCR ${f(r.frames / r.ocrSeconds)} frames/s (${f(r.ocrSeconds, 1)} s)   end to end ${f(r.frames / r.totalSeconds)} frames/s (${f(r.totalSeconds, 1)} s, extraction ${f(r.extractionSeconds, 1)} s)`);
  }
  console.log(`  speed-up with 2 workers: OCR ${f(one.ocrSeconds / two.ocrSeconds)}x, end to end ${f(one.totalSeconds / two.totalSeconds)}x`);
}
