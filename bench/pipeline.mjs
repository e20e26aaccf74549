// Pipeline benchmark: generated 720p media through the whole product (gateway API, frame extraction, OCR
// workers, results) against the anchor, bare Tesseract on the same frames (ffmpeg's fps filter, then one
// single-threaded `tesseract` per core: sample-media's anchor.ts), in the same run.
// Prints frames per second, the ratio, time per stage, and the share of known values found by each.
// Each case runs in rounds (BENCH_ROUNDS, 3 by default), the anchor then the product, after one upload that warms
// the services; the ratio is the median round's. BENCH_CASES=0,5 runs only those cases (by their place in the list);
// BENCH_MISSES=1 prints each value either one missed, with the text it read instead.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anchorExtract, anchorRead, benchRounds, filmWithPhone, makeChargerVideo, makeInstrumentVideo, makeSlidesVideo, makeTelemetryVideo, medianRound, textsAt } from '@frametext/sample-media';
import { confirmEmail, mailboxMessages } from '../scripts/lib/mailbox.mjs';
import { startServices, waitUntilHealthy } from '../scripts/lib/services.mjs';
import { portOpen } from '../scripts/lib/sh.mjs';

const BASE = 'http://localhost:8080';
// A value counts as found when its characters are there, spaces aside: `36.5C` is the reading `36.5 C`.
const norm = (s) => s.replace(/\s+/g, '');

/** fetch, tried once more when a kept-alive connection turns out closed before any answer (idle between cases). */
async function send(url, init) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (err?.cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

export async function api(method, route, body, token) {
  const res = await send(`${BASE}/api${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return json;
}

/** Uploads a video through the public contract and follows it to processed; returns timings and results. */
export async function runThroughPipeline(token, video, intervalSeconds, mediaContent = 'numerical') {
  const t0 = performance.now();
  const { urls, uploadID } = await api('POST', '/getUploadURL', {
    isVideo: true,
    kind: 'video',
    uploadName: path.basename(video.path),
    mimeType: 'video/mp4',
    fileName: path.basename(video.path),
    duration: video.durationSeconds,
    targetFrameRate: 1 / intervalSeconds,
    mediaContent,
    // Every frame at the interval, as the anchor reads them (slide detection would read one frame per slide).
    slideDetection: false,
    ocrType: 'server',
  }, token);
  const bytes = readFileSync(video.path);
  const put = await send(urls[0], { method: 'PUT', body: bytes, headers: { 'content-type': 'video/mp4' } });
  if (!put.ok) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  const tUploaded = performance.now();
  await api('POST', '/uploadComplete', { uploadID }, token);
  const tComplete = performance.now();
  // Extraction has ended when the status knows the frames' total (frames are read while it runs).
  let tExtracted;
  let framesTotal;
  for (;;) {
    const { data } = await api('GET', `/checkUploadStatus/${uploadID}`, undefined, token);
    if (data.framesTotal != null && !tExtracted) tExtracted = performance.now();
    if (data.status === 'processed') {
      framesTotal = data.framesTotal;
      break;
    }
    if (data.status === 'failed') throw new Error(`upload failed: ${data.failureReason}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const tDone = performance.now();
  const details = await api('GET', `/getUploadDetails/${uploadID}?mode=${mediaContent}`, undefined, token);
  return {
    details,
    /** Frames read (the results of a presentation list each slide once). */
    framesTotal,
    stages: {
      transferMs: tUploaded - t0,
      extractionMs: (tExtracted ?? tDone) - tComplete,
      ocrMs: tDone - (tExtracted ?? tComplete),
      totalMs: tDone - tComplete,
      /** What a person waits for: from asking for the upload URL to processed. */
      endToEndMs: tDone - t0,
    },
  };
}

/** Share of the values on screen at each frame's time that the frame's recognised text contains. */
function accuracy(video, frames) {
  let found = 0;
  let total = 0;
  for (const { t, text } of frames) {
    const have = norm(text);
    for (const want of textsAt(video, t + 0.001)) {
      total += 1;
      if (have.includes(norm(want))) found += 1;
      else if (process.env.BENCH_MISSES) console.log(`miss t=${t} ${want} | ${text.replace(/\n/g, ' / ')}`);
    }
  }
  return total ? found / total : 0;
}

/** The anchor on the same frames: ffmpeg's fps filter, then bare `tesseract` on every core. */
async function bareTesseract(video, intervalSeconds, dir) {
  const extracted = await anchorExtract(video.path, intervalSeconds, path.join(dir, `${path.basename(video.path)}-frames`));
  const read = await anchorRead(extracted.files, { env: process.env });
  return {
    frames: read.texts.map((text, i) => ({ t: i * intervalSeconds, text })),
    extractSeconds: extracted.seconds,
    readSeconds: read.seconds,
    processes: read.processes,
  };
}

function pipelineFrames(details, intervalSeconds) {
  return details.results.ocrResults.map((r, i) => ({ t: r.t ?? i * intervalSeconds, text: (r.detections ?? []).map((d) => d.text).join('\n') }));
}

/**
 * Runs `fn` against a whole product of its own (database, broker vhost and data folder made for the run and removed
 * after), with a signed-up user holding credits: `fn({ token, dir, running })`. `env` adds settings.
 */
export async function withBenchStack(name, env, fn) {
  if (await portOpen(8080)) throw new Error('port 8080 is taken (is `npm start` running?): stop it to run the benchmarks that start the product');
  const dir = mkdtempSync(path.join(tmpdir(), `frametext-${name}-`));
  const vhost = `frametext_${name}`;
  // A database of the run's own: one left by an earlier run holds signing keys sealed with that run's secrets.
  const dropDatabase = () => execFileSync('psql', ['postgres://postgres:postgres@127.0.0.1:5432/postgres', '-qc', `DROP DATABASE IF EXISTS frametext_${name} WITH (FORCE)`], { stdio: 'ignore' });
  dropDatabase();
  try { execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' }); } catch { /* exists */ }
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  const running = startServices({
    quiet: true,
    env: {
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:5432/frametext_${name}`,
      RABBITMQ_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
      LOG_LEVEL: 'warn',
      DEMO_SEED: 'false',
      FREE_CREDITS: '1000',
      // The benchmarks poll every 100 ms as one person: the per-person request budget is not what they measure.
      REQUESTS_PER_MINUTE_PER_PERSON: '100000',
      // One sign-in serves the whole run, which takes longer than a session's 10 minutes.
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      ...env,
    },
  });
  try {
    await waitUntilHealthy(BASE, 120_000);
    const email = `bench-${Date.now()}@example.com`;
    const { idToken } = await api('POST', '/auth/signup', { email, password: 'bench-pass-1' });
    // The free grant comes once the e-mail is confirmed (the mailed link), through the bus.
    await confirmEmail(BASE, email, () => mailboxMessages(path.join(dir, 'data', 'mailbox')));
    for (let i = 0; i < 100; i++) {
      const profile = await api('GET', '/getUserData', undefined, idToken);
      if (profile.credits > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return await fn({ token: idToken, dir, running, vhost });
  } finally {
    await running.stop();
    try { execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' }); } catch { /* gone */ }
    dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  }
}

const SLIDES = Array.from({ length: 10 }, (_, i) => [`Quarter ${i + 1} review`, `Revenue grew ${10 + i} percent`, `Costs fell ${3 + i} percent`]);

export function benchPipeline() {
  return withBenchStack('bench', {}, async ({ token, dir }) => {
    const charger = await makeChargerVideo({ dir, seconds: 60 });
    // Every frame (no slide detection), so both read the same 60 frames: 10 slides, each on screen for 6 of them.
    const slides = await makeSlidesVideo({ dir, slides: SLIDES, secondsPerSlide: 6 });
    const all = [
      { name: 'charger screen, 60 s 720p at 1 s', video: charger, interval: 1 },
      { name: 'telemetry numbers over a moving picture, 60 s 720p at 1 s', video: await makeTelemetryVideo({ dir, seconds: 60 }), interval: 1 },
      { name: 'slides, 60 s 720p at 1 s, every frame read', video: slides, interval: 1, mediaContent: 'presentation' },
      { name: 'charger screen filmed by a phone (tilted, shaking, soft, moiré, flicker, noise, 960x540, crf 36), 60 s at 1 s', video: await filmWithPhone(charger, { dir }), interval: 1 },
      { name: 'slides filmed by a phone (the same), 60 s at 1 s, every frame read', video: await filmWithPhone(slides, { dir }), interval: 1, mediaContent: 'presentation' },
      { name: 'lab instrument (white and yellow readings on blue) filmed by a phone, 60 s at 1 s', video: await filmWithPhone(await makeInstrumentVideo({ dir, seconds: 60 }), { dir }), interval: 1 },
    ];
    const cases = process.env.BENCH_CASES ? all.filter((c, i) => process.env.BENCH_CASES.split(',').includes(String(i))) : all;
    // Services just started are cold (modules, compiled code, connections, Tesseract models); a product that runs is not.
    await runThroughPipeline(token, await makeChargerVideo({ dir, seconds: 10, name: 'warm-up.mp4' }), 1);
    const rows = [];
    const roundCount = benchRounds(process.env);
    for (const c of cases) {
      const rounds = [];
      for (let r = 0; r < roundCount; r++) {
        const bare = await bareTesseract(c.video, c.interval, dir);
        const ours = await runThroughPipeline(token, c.video, c.interval, c.mediaContent);
        const bareSeconds = bare.extractSeconds + bare.readSeconds;
        rounds.push({ bare, ours, ratio: bareSeconds / (ours.stages.endToEndMs / 1000), accuracy: accuracy(c.video, pipelineFrames(ours.details, c.interval)) });
      }
      // The median round's timings; the pipeline's lowest accuracy of any round.
      const { bare, ours } = medianRound(rounds, (r) => r.ratio);
      const frames = ours.framesTotal;
      rows.push({
        case: c.name,
        frames,
        bareFps: frames / (bare.extractSeconds + bare.readSeconds),
        bare,
        pipelineFps: frames / (ours.stages.endToEndMs / 1000),
        ratios: rounds.map((r) => r.ratio),
        stages: ours.stages,
        bareAccuracy: accuracy(c.video, bare.frames),
        pipelineAccuracy: Math.min(...rounds.map((r) => r.accuracy)),
      });
    }
    return rows;
  });
}

export function printPipeline(rows) {
  const f = (n, d = 2) => n.toFixed(d);
  console.log('\nPipeline (getUploadURL -> transfer -> extraction -> OCR workers -> processed) vs bare Tesseract on every core, same frames');
  for (const r of rows) {
    console.log(`\n  ${r.case}: ${r.frames} frames`);
    console.log(`    throughput  pipeline ${f(r.pipelineFps)} frames/s   bare tesseract ${f(r.bareFps)} frames/s   ratio ${f(r.pipelineFps / r.bareFps)}x (target >= 1.20x; median of ${r.ratios.map((x) => f(x)).join(', ')})`);
    console.log(`    pipeline    transfer ${f(r.stages.transferMs / 1000)} s   extraction ${f(r.stages.extractionMs / 1000)} s   OCR to processed ${f(r.stages.ocrMs / 1000)} s   end to end ${f(r.stages.endToEndMs / 1000)} s`);
    console.log(`    bare        ffmpeg fps filter ${f(r.bare.extractSeconds)} s   ${r.bare.processes} tesseract processes ${f(r.bare.readSeconds)} s   total ${f(r.bare.extractSeconds + r.bare.readSeconds)} s`);
    console.log(`    accuracy    pipeline ${f(r.pipelineAccuracy * 100, 1)}% (lowest round)   bare tesseract ${f(r.bareAccuracy * 100, 1)}% of known values found`);
  }
}
