import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpeg } from '@frametext/sample-media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFrames } from '../src/data/ffmpeg.js';
import { intervalSampling } from '../src/domain/sampling.js';

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

/** Which second each sampled frame shows, from its mean grey level. */
async function secondsShown(path: string, intervalSeconds: number, frames: number): Promise<number[]> {
  const shown: number[] = [];
  for await (const frame of decodeFrames({ path, ...intervalSampling(intervalSeconds), maxFrames: frames, timeoutMs: 60_000, threads: 2 })) {
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
