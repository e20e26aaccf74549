import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_UP_DECK, makeBuildUpDeckVideo, textsAt } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'build-up-deck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frameAt = (path: string, t: number) => {
  const png = `${path}.${t}.png`;
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-ss', String(t), '-i', path, '-frames:v', '1', png]);
  return png;
};
const ocr = (png: string) => execFileSync('tesseract', [png, '-'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();

describe('the build-up deck', () => {
  it('shows each slide bullet by bullet, with real bullet glyphs, and knows each slide’s full text', async () => {
    const video = await makeBuildUpDeckVideo({ dir, secondsPerBuild: 2, width: 960, height: 540 });
    const builds = BUILD_UP_DECK.reduce((n, s) => n + s.bullets.length, 0);
    expect(video.truth).toHaveLength(builds);
    expect(video.slides).toHaveLength(6);
    expect(video.durationSeconds).toBe(builds * 2);
    const second = video.slides[1]!;
    expect(second.lines).toEqual(['Customer stories', '– Three teams shipped faster', '– Support tickets fell by half', '– Renewals reached a record']);
    expect(second.plainLines[1]).toBe('Three teams shipped faster');
    expect(second).toMatchObject({ startS: 6, endS: 12 });

    // First build of slide 2: the title and one bullet; its last build: all three.
    expect(textsAt(video, 7)).toEqual(['Customer stories', '– Three teams shipped faster']);
    const first = ocr(frameAt(video.path, 7));
    expect(first).toContain('Three teams shipped faster');
    expect(first).not.toContain('Support tickets');
    const last = ocr(frameAt(video.path, 11));
    for (const line of second.plainLines) expect(last).toContain(line);
  });
});
