// Scale benchmark (`npm run bench -- scale`): how the product's throughput on this machine changes with a second OCR
// worker process and with a second frame-extraction process, on two media: the charger screen (a plain screen whose
// unchanged regions carry over, so its frames cost OCR little) and telemetry over a moving picture (numbers that
// change at every frame read, over ffmpeg's testsrc2 with its own running clock: each frame costs Tesseract).
//
// One stack, replicas only ever added, so each comparison changes one thing:
//   1. each medium uploaded alone with 1 OCR worker, then (one more ocr-tesseract process) alone with 2;
//   2. with those 2 OCR workers, two copies of each medium submitted at once to 1 frame-extraction process, then
//      (one more frame-extraction process) to 2. One upload is cut into ranges across one process's WORKER_THREADS,
//      never across processes, so a second process can only help when two uploads wait: hence two at once.
// Each OCR worker runs one Tesseract at a time (OCR_CONCURRENCY=1). A short upload warms every new process first.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { makeChargerVideo, makeTelemetryVideo } from '@frametext/sample-media';
import { runThroughPipeline, withBenchStack } from './pipeline.mjs';

const MEDIA = [
  { key: 'charger', name: 'charger screen, 720p, 240 s at 1 frame a second (unchanged regions carry over)', make: (dir) => makeChargerVideo({ dir, seconds: 240 }) },
  { key: 'telemetry', name: 'telemetry over a moving picture, 720p, 90 s at 1 frame a second (its numbers change at every frame read)', make: (dir) => makeTelemetryVideo({ dir, seconds: 90 }) },
];

/** Consumers of a service's work queue in the run's broker vhost, as RabbitMQ counts them (one per process). */
function consumers(vhost, queue) {
  const out = execFileSync('rabbitmqctl', ['list_queues', '-p', vhost, '--quiet', '--no-table-headers', 'name', 'consumers']).toString();
  const line = out.split('\n').find((l) => l.split(/\s+/)[0] === queue);
  return line ? Number(line.split(/\s+/)[1]) : 0;
}

async function untilConsumers(vhost, queue, n) {
  for (let i = 0; i < 600; i++) {
    if (consumers(vhost, queue) >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the ${queue} queue never had ${n} consumers`);
}

/** CPU seconds of a process and of its children that ended (ffmpeg runs), from /proc. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

/** One upload through the pipeline, its stage boundaries on this process's clock (performance.now()). */
async function timedUpload(token, video) {
  const start = performance.now();
  const run = await runThroughPipeline(token, video, 1);
  const s = run.stages;
  const read = run.details.results.ocrResults.length;
  if (read !== run.framesTotal) throw new Error(`${run.framesTotal} frames extracted but ${read} in the results`);
  const complete = start + s.endToEndMs - s.totalMs;
  return { frames: run.framesTotal, complete, extracted: complete + s.extractionMs, done: complete + s.totalMs };
}

/**
 * Uploads submitted at the same moment, measured as one batch from the first uploadComplete: extraction until the
 * last upload's frame count is known, OCR from then until the last is processed, end to end until then.
 */
async function batch(token, videos) {
  const runs = await Promise.all(videos.map((v) => timedUpload(token, v)));
  const complete = Math.min(...runs.map((r) => r.complete));
  const extracted = Math.max(...runs.map((r) => r.extracted));
  const done = Math.max(...runs.map((r) => r.done));
  return {
    uploads: runs.length,
    frames: runs.reduce((n, r) => n + r.frames, 0),
    extractionSeconds: (extracted - complete) / 1000,
    ocrSeconds: (done - extracted) / 1000,
    totalSeconds: (done - complete) / 1000,
  };
}

/** The frame-extraction processes' CPU seconds spent during `fn`, by process name. */
async function extractionCpu(running, fn) {
  const procs = () => [...running.children].filter(([name]) => name === 'frame-extraction' || name.startsWith('frame-extraction-'));
  const before = new Map(procs().map(([name, child]) => [name, cpuSeconds(child.pid)]));
  const result = await fn();
  result.extractionCpu = procs().map(([name, child]) => ({ name, seconds: cpuSeconds(child.pid) - (before.get(name) ?? 0) }));
  return result;
}

export function benchScale() {
  return withBenchStack('bench_scale', { OCR_CONCURRENCY: '1', FREE_CREDITS: '100000' }, async ({ token, dir, running, vhost }) => {
    const media = [];
    for (const m of MEDIA) media.push({ ...m, video: await m.make(dir) });
    const warm = await makeTelemetryVideo({ dir, seconds: 10, name: 'warm-up.mp4' });
    const warmUp = () => batch(token, [warm, warm]);
    const rows = [];
    const measure = async (kind, workers, copies) => {
      for (const m of media) {
        const run = await extractionCpu(running, () => batch(token, Array(copies).fill(m.video)));
        rows.push({ medium: m.key, name: m.name, kind, workers, ...run });
      }
    };

    await untilConsumers(vhost, 'ocr-tesseract', 1);
    await untilConsumers(vhost, 'frame-extraction', 1);
    await warmUp();
    await measure('ocr', 1, 1);

    running.addReplica('ocr-tesseract');
    await untilConsumers(vhost, 'ocr-tesseract', 2);
    await warmUp();
    await measure('ocr', 2, 1);
    await measure('extraction', 1, 2);

    running.addReplica('frame-extraction');
    await untilConsumers(vhost, 'frame-extraction', 2);
    await warmUp();
    await measure('extraction', 2, 2);
    return rows;
  });
}

export function printScale(rows) {
  const f = (n, d = 2) => n.toFixed(d);
  const rate = (frames, seconds) => (seconds > 0 ? `${f(frames / seconds, 1)} frames/s` : '-');
  const cell = (label, seconds, frames) => `${label} ${f(seconds, 1).padStart(5)} s ${rate(frames, seconds).padStart(15)}`;
  console.log(`\nScale on this machine (${availableParallelism()} cores): OCR workers (ocr-tesseract processes, one Tesseract each) and frame-extraction processes`);
  console.log('  Timed from uploadComplete: extraction until the frame count is known; OCR from then until processed (OCR also runs');
  console.log('  while frames are extracted: this is what it adds after); end to end until processed. Two uploads at once: from the');
  console.log('  first uploadComplete to the last one extracted, then the last processed; frames are both uploads\'.');
  for (const medium of [...new Set(rows.map((r) => r.medium))]) {
    const mine = rows.filter((r) => r.medium === medium);
    console.log(`\n  ${mine[0].name}`);
    for (const r of mine) {
      const what = (r.kind === 'ocr' ? `OCR workers ${r.workers}, 1 extraction process, 1 upload` : `extraction processes ${r.workers}, 2 OCR workers, 2 uploads at once`).padEnd(60);
      console.log(`    ${what}  ${String(r.frames).padStart(3)} frames   ${cell('extraction', r.extractionSeconds, r.frames)}   ${cell('OCR', r.ocrSeconds, r.frames)}   ${cell('end to end', r.totalSeconds, r.frames)}`);
      if (r.kind === 'extraction') console.log(`      CPU of frame-extraction (its ffmpeg runs included): ${r.extractionCpu.map((c) => `${c.name} ${f(c.seconds, 1)} s`).join(', ')}`);
    }
    const pick = (kind, workers) => mine.find((r) => r.kind === kind && r.workers === workers);
    const speedUp = (a, b, key) => (b[key] > 0 ? `${f(a[key] / b[key])}x` : '-');
    const [o1, o2, e1, e2] = [pick('ocr', 1), pick('ocr', 2), pick('extraction', 1), pick('extraction', 2)];
    console.log(`    speed-up, 2 OCR workers against 1: OCR ${speedUp(o1, o2, 'ocrSeconds')}, end to end ${speedUp(o1, o2, 'totalSeconds')}`);
    console.log(`    speed-up, 2 extraction processes against 1 (2 uploads at once): extraction ${speedUp(e1, e2, 'extractionSeconds')}, end to end ${speedUp(e1, e2, 'totalSeconds')}`);
  }
}
