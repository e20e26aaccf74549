import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpeg } from '@frametext/sample-media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFrames } from '../src/data/ffmpeg.js';
import { intervalSampling, rangeSampling, slotRanges } from '../src/domain/sampling.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fx-sampling-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A video whose picture changes exactly at each whole second (luma 40 + 20 x (second mod 10)), over noise so the
 * encoder uses B-frames as it does on real footage.
 */
async function steppedVideo(name: string, fps: string, seconds: number): Promise<string> {
  const path = join(dir, name);
  await ffmpeg([
    '-f', 'lavfi', '-i', `color=black:s=160x120:r=${fps},geq=lum='40+20*mod(floor(T+0.0001)\\,10)+random(1)*6':cb=128:cr=128`,
    '-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '3', '-pix_fmt', 'yuv420p', path,
  ]);
  return path;
}

/** Which second each sampled frame shows, from its mean grey level; `startMs` starts the run at that slot. */
async function secondsShown(path: string, intervalSeconds: number, frames: number, startMs = 0): Promise<number[]> {
  const shown: number[] = [];
  const sampling = startMs === 0 ? intervalSampling(intervalSeconds) : rangeSampling(intervalSeconds, startMs);
  for await (const frame of decodeFrames({ path, ...sampling, maxFrames: frames, timeoutMs: 60_000, threads: 1 })) {
    let sum = 0;
    for (let i = 0; i < frame.data.length; i += 3) sum += frame.data[i]!;
    // RGB from limited-range luma: Y = 16 + R x 219 / 255; the noise adds 3 on average.
    const luma = 16 + ((sum / (frame.data.length / 3)) * 219) / 255;
    shown.push(Math.max(0, Math.round((luma - 43) / 20)));
  }
  return shown;
}

describe('sampling a video at an interval', () => {
  it('gives frame n the picture of n x interval, never one from before it, with B-frames left undecoded', async () => {
    const path = await steppedVideo('stepped-25.mp4', '25', 8);
    expect(await secondsShown(path, 1, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await secondsShown(path, 2, 4)).toEqual([0, 2, 4, 6]);
    // 8 s at 3 s: the last slot, 6 s, is the last one with pictures of its own, up to the end.
    expect(await secondsShown(path, 3, 3)).toEqual([0, 3, 6]);
  });

  it('keeps to the slot on NTSC timestamps (29.97 frames a second)', async () => {
    const path = await steppedVideo('stepped-ntsc.mp4', '30000/1001', 6);
    expect(await secondsShown(path, 1, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('repeats the picture on screen where a slot has none of its own (a video slower than the interval)', async () => {
    const path = await steppedVideo('stepped-1fps.mp4', '1', 4);
    expect(await secondsShown(path, 0.25, 16)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
  });
});

/** The same slots read by runs that each start at their range's first slot, one after the other. */
async function shownInRanges(path: string, intervalSeconds: number, frames: number, runs: number): Promise<number[]> {
  const shown: number[] = [];
  for (const { first, count } of slotRanges(frames, runs)) shown.push(...(await secondsShown(path, intervalSeconds, count, Math.round(first * intervalSeconds * 1000))));
  return shown;
}

describe('sampling a video in ranges, one ffmpeg run each', () => {
  it('cuts the slots into near-equal ranges, none shorter than a run is worth', () => {
    expect(slotRanges(60, 2)).toEqual([{ first: 0, count: 30 }, { first: 30, count: 30 }]);
    expect(slotRanges(50, 3)).toEqual([{ first: 0, count: 17 }, { first: 17, count: 17 }, { first: 34, count: 16 }]);
    expect(slotRanges(40, 8)).toEqual([{ first: 0, count: 20 }, { first: 20, count: 20 }]);
    expect(slotRanges(20, 4)).toEqual([{ first: 0, count: 20 }]);
  });

  it('gives each slot the picture one run from the start gives it, B-frames and NTSC timestamps included', async () => {
    const path = await steppedVideo('ranged-25.mp4', '25', 40);
    const whole = await secondsShown(path, 1, 40);
    expect(whole).toEqual(Array.from({ length: 40 }, (_, i) => i % 10));
    expect(await shownInRanges(path, 1, 40, 2)).toEqual(whole);
    expect(await shownInRanges(path, 2.5, 16, 1)).toEqual(await secondsShown(path, 2.5, 16));
    const ntsc = await steppedVideo('ranged-ntsc.mp4', '30000/1001', 36);
    expect(await shownInRanges(ntsc, 1, 36, 2)).toEqual(await secondsShown(ntsc, 1, 36));
  });

  it('shows an earlier picture in a range whose first slots have none of their own (a slow or variable-rate video)', async () => {
    const slow = await steppedVideo('ranged-1fps.mp4', '1', 10);
    const whole = await secondsShown(slow, 0.25, 40);
    expect(whole.slice(16, 20)).toEqual([4, 4, 4, 4]);
    expect(await shownInRanges(slow, 0.25, 40, 2)).toEqual(whole);
    // Pictures only at 0, 7, 8, 20 and 29 s (a screen recording that adds one on change): the second range starts
    // at 15 s, where the picture of 8 s is still on screen.
    const sparse = join(dir, 'ranged-vfr.mp4');
    await ffmpeg([
      '-f', 'lavfi', '-t', '30', '-i', "color=black:s=160x120:r=1,geq=lum='40+20*mod(floor(T+0.0001)\\,10)':cb=128:cr=128",
      '-vf', "select='eq(n\\,0)+eq(n\\,7)+eq(n\\,8)+eq(n\\,20)+eq(n\\,29)'", '-fps_mode', 'vfr', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', sparse,
    ]);
    const wholeSparse = await secondsShown(sparse, 1, 30);
    expect(wholeSparse.slice(15, 20)).toEqual([8, 8, 8, 8, 8]);
    expect(await shownInRanges(sparse, 1, 30, 2)).toEqual(wholeSparse);
  });
});
