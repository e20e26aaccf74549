import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'frametext-ffmpeg-'));
  // An ffmpeg that writes one 2x1 frame to its output pipe, closes it, and exits a moment later: as a real one can on
  // a busy machine, where the process's exit is seen well after its output ends. Asked what it can do (fluent-ffmpeg
  // checks formats and codecs first), the real ffmpeg answers.
  const fake = join(dir, 'ffmpeg');
  // With FAKE_FFMPEG=wedged it writes nothing and leaves a child holding its output and error pipes open, so being
  // killed does not end them: what fluent-ffmpeg waits for before it reports the end. It notes its own pid, then the
  // child's, in ffmpeg-pid and holder-pid.
  const frame = "printf 'P6\\n2 1\\n255\\n\\001\\002\\003\\004\\005\\006'; exec 1>&-; sleep 0.3; exit 0";
  const wedged = `echo $$ > "${join(dir, 'ffmpeg-pid')}"; sleep 600 & echo $! > "${join(dir, 'holder-pid')}"; wait`;
  // Each decoding run's arguments are kept in last-args.
  await writeFile(fake, `#!/bin/sh\ncase "$*" in\n  *pipe:1*) echo "$*" > "${join(dir, 'last-args')}"; if [ "$FAKE_FFMPEG" = wedged ]; then ${wedged}; else ${frame}; fi ;;\n  *) exec ffmpeg "$@" ;;\nesac\n`);
  await chmod(fake, 0o755);
  process.env.FFMPEG_PATH = fake;
});

afterAll(async () => {
  delete process.env.FFMPEG_PATH;
  delete process.env.FAKE_FFMPEG;
  // The wedged run's child, which holds its pipes until it is killed.
  const holder = await pidIn('holder-pid');
  if (holder && alive(holder)) process.kill(holder, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('decodeFrames', () => {
  it('keeps every frame and succeeds when ffmpeg exits some time after its output has ended', async () => {
    const { decodeFrames } = await import('./ffmpeg.js');
    const frames = [];
    for await (const frame of decodeFrames({ path: join(dir, 'video.mp4'), maxFrames: 5, timeoutMs: 10_000, threads: 2 })) frames.push(frame);
    expect(frames.map((f) => [f.width, f.height, [...f.data]])).toEqual([[2, 1, [1, 2, 3, 4, 5, 6]]]);
  });

  it('decodes with the threads it is given, not as many as the node has cores', async () => {
    const { decodeFrames } = await import('./ffmpeg.js');
    for await (const frame of decodeFrames({ path: join(dir, 'video.mp4'), maxFrames: 1, timeoutMs: 10_000, threads: 3 })) void frame;
    expect(await readFile(join(dir, 'last-args'), 'utf8')).toMatch(/^-threads 3 -i /);
  });

  it('gives up at its timeout even when the killed process leaves its pipes open', async () => {
    const { decodeFrames, FfmpegTimeoutError } = await import('./ffmpeg.js');
    process.env.FAKE_FFMPEG = 'wedged';
    // The run's timeout fires when the test says, once the wedged ffmpeg is up; the test waits on the real clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const frames = (async () => {
        for await (const frame of decodeFrames({ path: join(dir, 'video.mp4'), maxFrames: 5, timeoutMs: 300, threads: 2 })) void frame;
      })();
      frames.catch(() => undefined);
      const holder = await until(() => pidIn('holder-pid'));
      const ffmpegPid = (await pidIn('ffmpeg-pid'))!;
      vi.advanceTimersByTime(300);
      await expect(frames).rejects.toBeInstanceOf(FfmpegTimeoutError);
      // It did not wait for the pipes to close: the child holding them is still there.
      expect(alive(holder)).toBe(true);
      // The ffmpeg process is gone.
      await until(() => !alive(ffmpegPid));
    } finally {
      vi.useRealTimers();
      delete process.env.FAKE_FFMPEG;
    }
  });
});

/** The pid a wedged run noted in `file`, once it has. */
async function pidIn(file: string): Promise<number | undefined> {
  const text = await readFile(join(dir, file), 'utf8').catch(() => '');
  return /^\d+\n$/.test(text) ? Number(text) : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits on the real clock (node:timers/promises, which the fake timers leave alone) until `check` answers. */
async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value;
    await sleep(20);
  }
}
