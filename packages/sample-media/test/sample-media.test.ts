import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { CAPTIONS_CORPUS, chargerValues, makeCaptionsVideo, makeChargerVideo, makePhotoSeries, makeSlidesVideo, textsAt } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sample-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probeSeconds = (path: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString());
const frameAt = (path: string, t: number) => {
  const png = `${path}.${t}.png`;
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-ss', String(t), '-i', path, '-frames:v', '1', png]);
  return png;
};
const ocr = (png: string) => execFileSync('tesseract', [png, '-'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();

describe('sample media', () => {
  it('makes a charger video whose screen shows the values its truth lists, second by second', async () => {
    const video = await makeChargerVideo({ dir, seconds: 4 });
    expect(probeSeconds(video.path)).toBeCloseTo(4, 0);
    expect(video.truth).toHaveLength(4);
    expect(textsAt(video, 2.5)).toEqual([chargerValues(2).battery, chargerValues(2).power, chargerValues(2).elapsed]);
    const text = ocr(frameAt(video.path, 2.5));
    expect(text).toContain('148 kW');
    expect(text).toContain('22%');
    expect(text).toContain('00:02');
  });

  it('makes slides that change at the given times', async () => {
    const video = await makeSlidesVideo({ dir, slides: [['Agenda', 'Why we measure'], ['Results: 12% more', 'Next steps']], secondsPerSlide: 2, width: 640, height: 360 });
    expect(probeSeconds(video.path)).toBeCloseTo(4, 0);
    expect(ocr(frameAt(video.path, 1))).toContain('Agenda');
    expect(ocr(frameAt(video.path, 3))).toContain('Results: 12% more');
  });

  it('has a captions corpus of 14 captions, one and two lines, 1.5 to 5 s each, with gaps and back to back', () => {
    expect(CAPTIONS_CORPUS).toHaveLength(14);
    const lines = CAPTIONS_CORPUS.map((c) => c.text.split('\n').length);
    expect(new Set(lines)).toEqual(new Set([1, 2]));
    for (const c of CAPTIONS_CORPUS) {
      expect(c.endS - c.startS).toBeGreaterThanOrEqual(1.5);
      expect(c.endS - c.startS).toBeLessThanOrEqual(5);
    }
    const gaps = CAPTIONS_CORPUS.slice(1).map((c, i) => c.startS - CAPTIONS_CORPUS[i]!.endS);
    expect(gaps.every((g) => g >= 0)).toBe(true);
    expect(gaps.filter((g) => g === 0).length).toBeGreaterThanOrEqual(4);
    expect(gaps.filter((g) => g > 0).length).toBeGreaterThanOrEqual(4);
  });

  it('makes a cluttered captions video whose truth lists a two-line caption as its two lines while it is on', async () => {
    const video = await makeCaptionsVideo({ dir, captions: [{ text: 'Tonight we travel north\nto the edge of the ice', startS: 1, endS: 3 }], outline: 2, size: 40, clutter: true, seconds: 4 });
    expect(textsAt(video, 2)).toEqual(['Tonight we travel north', 'to the edge of the ice']);
    expect(textsAt(video, 3.5)).toEqual([]);
    expect(probeSeconds(video.path)).toBeCloseTo(4, 0);
  });

  it('makes photos with their capture time and an orientation tag that turns them upright', async () => {
    const [photo] = await makePhotoSeries({ dir, photos: [{ name: 'turned.jpg', lines: ['Upright text'], capturedAt: new Date('2024-05-01T10:00:00Z'), orientation: 6, width: 640, height: 360 }] });
    const meta = await sharp(photo!.path).metadata();
    expect(meta.orientation).toBe(6);
    expect([meta.width, meta.height]).toEqual([360, 640]);
    expect(meta.exif?.toString('latin1')).toContain('2024:05:01 10:00:00');
  });
});
