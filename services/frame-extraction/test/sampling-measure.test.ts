/**
 * Measures the two ways of taking frames on a 60 s 720p video, to choose SEEK_MIN_INTERVAL_SECONDS (see README).
 * Slow (it makes the video and decodes it a dozen times), so it runs only with MEASURE_SAMPLING=1:
 *   MEASURE_SAMPLING=1 npx vitest run services/frame-extraction/test/sampling-measure.test.ts
 * It prints the timings; it asserts only that both methods give the frames asked for.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeChargerVideo } from '@frametext/sample-media';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeFrames, frameAt } from '../src/data/ffmpeg.js';
import { mapLimit } from '../src/domain/context.js';
import { sampleTimestampsMs } from '../src/domain/sampling.js';

const enabled = process.env.MEASURE_SAMPLING === '1';
if (!enabled) console.log('sampling-measure: skipped (slow); run with MEASURE_SAMPLING=1 to print the fps-filter vs seeking timings');

describe.skipIf(!enabled)('fps filter vs input seeking on a 60 s 720p video', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints the time each method takes per interval', async () => {
    dir = await mkdtemp(join(tmpdir(), 'fx-measure-'));
    const video = await makeChargerVideo({ dir, seconds: 60, width: 1280, height: 720 });
    const timeoutMs = 120_000;
    const rows: string[] = ['interval_s  frames  fps_filter_ms  seek_ms(2 at a time)  seek_ms_per_frame'];
    for (const interval of [1, 2, 5, 10, 15, 30, 60]) {
      const times = sampleTimestampsMs(60, interval, 360);
      let t0 = performance.now();
      let n = 0;
      for await (const frame of decodeFrames({ path: video.path, videoFilter: `fps=1000/${interval * 1000}:round=up`, maxFrames: times.length, timeoutMs, threads: 2 })) {
        expect(frame.width).toBe(1280);
        n++;
      }
      const fpsMs = performance.now() - t0;
      expect(n).toBe(times.length);
      t0 = performance.now();
      const frames = await mapLimit(times, 2, (ms) => frameAt(video.path, ms / 1000, { timeoutMs, threads: 2 }));
      const seekMs = performance.now() - t0;
      expect(frames.every((f) => f !== null)).toBe(true);
      rows.push(`${String(interval).padStart(10)}  ${String(times.length).padStart(6)}  ${fpsMs.toFixed(0).padStart(13)}  ${seekMs.toFixed(0).padStart(20)}  ${(seekMs / times.length).toFixed(0).padStart(17)}`);
    }
    console.log(rows.join('\n'));
  }, 600_000);
});
