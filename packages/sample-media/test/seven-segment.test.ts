import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { displayValue, makeSevenSegmentFrames, makeSevenSegmentVideo, SEGMENT_STYLES, sevenSegmentScene, textsAt } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'seven-segment-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seven-segment sample media', () => {
  it('lays out five or six displays of every style and several sizes; a seed always gives the same scene', () => {
    const scene = sevenSegmentScene(7);
    expect(scene.displays.length).toBeGreaterThanOrEqual(5);
    expect(new Set(scene.displays.map((d) => d.style))).toEqual(new Set(SEGMENT_STYLES));
    expect(JSON.stringify(sevenSegmentScene(7))).toBe(JSON.stringify(scene));
    expect(JSON.stringify(sevenSegmentScene(8))).not.toBe(JSON.stringify(scene));
    const heights = [1, 2, 3, 4, 5].flatMap((s) => sevenSegmentScene(s).displays.map((d) => d.digitHeight));
    expect(Math.min(...heights)).toBeLessThan(45);
    expect(Math.max(...heights)).toBeGreaterThan(95);
  });

  it('shows values with decimal points, colons and minus signs, changing every second', () => {
    const values = [1, 2, 3, 4, 5, 6].flatMap((seed) => sevenSegmentScene(seed).displays.flatMap((d) => [0, 30].map((s) => displayValue(d, s))));
    expect(values.some((v) => /^\d+\.\d{2,3}$/.test(v))).toBe(true);
    expect(values.some((v) => /^\d\d:\d\d$/.test(v))).toBe(true);
    expect(values.some((v) => /^-\d\.\d$/.test(v))).toBe(true);
    const d = sevenSegmentScene(1).displays[0]!;
    expect(displayValue(d, 1)).not.toBe(displayValue(d, 0));
  });

  it('draws each display where its box says, lit in its colour, with its label beside it', async () => {
    const [frame] = await makeSevenSegmentFrames({ dir, seed: 1, count: 1 });
    const { data, info } = await sharp(frame!.path).raw().toBuffer({ resolveWithObject: true });
    for (const d of frame!.displays.filter((x) => x.style === 'red' || x.style === 'green')) {
      let best = [0, 0, 0];
      for (let y = d.box.top; y < d.box.top + d.box.height; y++) {
        for (let x = d.box.left; x < d.box.left + d.box.width; x++) {
          const i = (y * info.width + x) * info.channels;
          const px = [data[i]!, data[i + 1]!, data[i + 2]!];
          if (px[0]! + px[1]! + px[2]! > best[0]! + best[1]! + best[2]!) best = px;
        }
      }
      const lit = d.style === 'red' ? best[0]! : best[1]!;
      expect(lit, d.style).toBeGreaterThan(200);
    }
    expect(frame!.labels).toEqual(expect.arrayContaining(['FREQ', 'NET WEIGHT', 'kg']));
  });

  it('makes a video whose truth is each second’s values', async () => {
    const video = await makeSevenSegmentVideo({ dir, seed: 3, seconds: 3, width: 640, height: 360 });
    const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', video.path]).toString());
    expect(seconds).toBeCloseTo(3, 0);
    expect(textsAt(video, 2.5)).toEqual(video.scene.displays.map((d) => displayValue(d, 2)));
  });
});
