import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'frametext-ffmpeg-'));
  // An ffmpeg that writes one 2x1 frame to its output pipe, closes it, and exits a moment later: as a real one can on
  // a busy machine, where the process's exit is seen well after its output ends. Asked what it can do (fluent-ffmpeg
  // checks formats and codecs first), the real ffmpeg answers.
  const fake = join(dir, 'ffmpeg');
  const frame = "printf 'P6\\n2 1\\n255\\n\\001\\002\\003\\004\\005\\006'; exec 1>&-; sleep 0.3; exit 0";
  await writeFile(fake, `#!/bin/sh\ncase "$*" in\n  *pipe:1*) ${frame} ;;\n  *) exec ffmpeg "$@" ;;\nesac\n`);
  await chmod(fake, 0o755);
  process.env.FFMPEG_PATH = fake;
});

afterAll(async () => {
  delete process.env.FFMPEG_PATH;
  await rm(dir, { recursive: true, force: true });
});

describe('decodeFrames', () => {
  it('keeps every frame and succeeds when ffmpeg exits some time after its output has ended', async () => {
    const { decodeFrames } = await import('./ffmpeg.js');
    const frames = [];
    for await (const frame of decodeFrames({ path: join(dir, 'video.mp4'), maxFrames: 5, timeoutMs: 10_000 })) frames.push(frame);
    expect(frames.map((f) => [f.width, f.height, [...f.data]])).toEqual([[2, 1, [1, 2, 3, 4, 5, 6]]]);
  });
});
