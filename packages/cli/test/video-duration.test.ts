// The upload request's `duration` is read from the video file itself (no ffprobe on the person's machine): MP4 with
// its header first or last, and QuickTime .mov.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpeg, makeChargerVideo } from '@frametext/sample-media';
import { videoDurationSeconds } from '../src/video-duration.js';

/** ffprobe's reading of the container's duration, the reference. */
const probed = (path: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString());

const dir = mkdtempSync(join(tmpdir(), 'cli-duration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('videoDurationSeconds', () => {
  it('reads an MP4 (header first and header last) and a MOV as ffprobe does', async () => {
    const video = await makeChargerVideo({ dir, seconds: 4, width: 320, height: 180 });
    expect(await videoDurationSeconds(video.path)).toBeCloseTo(4, 1);
    expect(await videoDurationSeconds(video.path)).toBeCloseTo(probed(video.path), 2);
    const headerLast = join(dir, 'header-last.mp4');
    await ffmpeg(['-i', video.path, '-c', 'copy', headerLast]);
    expect(await videoDurationSeconds(headerLast)).toBeCloseTo(probed(headerLast), 2);
    const mov = join(dir, 'charger.mov');
    await ffmpeg(['-i', video.path, '-c', 'copy', '-t', '2.5', mov]);
    expect(await videoDurationSeconds(mov)).toBeCloseTo(probed(mov), 1);
    expect(probed(mov)).toBeLessThan(3.5);
  }, 60_000);

  it('answers undefined for a file that is no video', async () => {
    const fake = join(dir, 'fake.mp4');
    writeFileSync(fake, 'not a video at all, just text');
    expect(await videoDurationSeconds(fake)).toBeUndefined();
  });
});
