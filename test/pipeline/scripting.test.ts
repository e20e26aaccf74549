// docs/scripting.md as written: its curl, Python and `frametext` code blocks are taken from the file and run against
// the real stack (every service in-process behind the gateway, Tesseract reading) with a generated video of an EV
// charger's screen, and what they write is checked. Then the CLI's behaviour a person meets beyond the docs: the API's
// own message on a refusal, photos, and Ctrl-C while waiting.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, makePhotoSeries, type GeneratedVideo } from '@frametext/sample-media';
import { useStack } from '../support/use-stack.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = path.join(ROOT, 'docs/scripting.md');
const CLI = path.join(ROOT, 'packages/cli/dist/main.js');
const SECONDS = 5;

/** The code blocks of the doc marked `<!-- test: kind -->`, in order. */
function blocks(kind: string): string[] {
  const found = [...readFileSync(DOC, 'utf8').matchAll(/<!-- test: (\w+) -->\n```\w+\n([\s\S]*?)\n```/g)];
  return found.filter((m) => m[1] === kind).map((m) => m[2]!);
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (or `onStderr` stops it), with the work folder, the stack's address and a token. */
function runProgram(command: string, args: string[], env: Record<string, string>, onStderr?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const bash = (script: string, env: Record<string, string> = {}, onStderr?: Parameters<typeof runProgram>[3]) =>
  runProgram('bash', ['-c', `set -euo pipefail\n${script}`], { FRAMETEXT_URL: stack.base, FRAMETEXT_TOKEN: token, ...env }, onStderr);

const cli = (args: string[], env: Record<string, string> = {}, onStderr?: Parameters<typeof runProgram>[3]) =>
  runProgram('frametext', args, { FRAMETEXT_URL: stack.base, FRAMETEXT_TOKEN: token, ...env }, onStderr);

let work: string;
let bin: string;
/** Where the generated video is kept between examples. */
let media: string;
let video: GeneratedVideo;
let videoMade: Promise<GeneratedVideo>;
/** The upload token the doc's token block made. */
let token = '';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the CLI first (pnpm --filter @frametext/cli run build)`);
  media = mkdtempSync(path.join(tmpdir(), 'scripting-media-'));
  work = mkdtempSync(path.join(tmpdir(), 'scripting-doc-'));
  // `frametext` on PATH, as `pnpm exec` or a global install puts it.
  bin = mkdtempSync(path.join(tmpdir(), 'scripting-bin-'));
  writeFileSync(path.join(bin, 'frametext'), `#!/bin/sh\nexec node ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(path.join(bin, 'frametext'), 0o755);
  // Made while the stack starts (awaited below, once it has).
  videoMade = makeChargerVideo({ dir: media, seconds: SECONDS, width: 640, height: 360 });
});

afterAll(() => {
  for (const dir of [work, bin, media]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const stack = useStack();

beforeAll(async () => {
  video = await videoMade;
}, 120_000);

/** A fresh folder holding only the video, for one example to write its files in. */
function freshWork(): void {
  rmSync(work, { recursive: true, force: true });
  work = mkdtempSync(path.join(tmpdir(), 'scripting-doc-'));
  copyFileSync(video.path, path.join(work, 'charger.mp4'));
}

type Frame = { t: number; detections: { text: string }[] };

/** Every frame of the video, a second apart, and the charger's battery reading on the first frames. */
function expectChargerFrames(frames: Frame[]) {
  expect(frames.map((f) => f.t)).toEqual([0, 1, 2, 3, 4]);
  const texts = frames.map((f) => f.detections.map((d) => d.text).join(' '));
  expect(texts[0]).toContain(chargerValues(0).battery);
  // Most frames read right is what a script can rely on; all of them is Tesseract's business.
  expect(texts.filter((text, s) => text.includes(chargerValues(s).battery)).length).toBeGreaterThanOrEqual(4);
}

describe('docs/scripting.md', () => {
  it('has the blocks this test runs', () => {
    expect(blocks('token')).toHaveLength(1);
    expect(blocks('curl').length).toBeGreaterThanOrEqual(4);
    expect(blocks('python')).toHaveLength(1);
    expect(blocks('cli').length).toBeGreaterThanOrEqual(2);
  });

  it('1. its curl makes an upload token from an email and password', async () => {
    const person = await stack.signUp();
    const ran = await bash(`${blocks('token')[0]}\necho "$FRAMETEXT_TOKEN"`, { EMAIL: person.email, PASSWORD: person.password, FRAMETEXT_TOKEN: '' });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    token = ran.stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^ftpat_/);
    const tokens = await stack.api('GET', '/auth/api-tokens', undefined, person.token);
    expect(tokens.body.tokens).toMatchObject([{ name: 'my script', scope: 'upload' }]);
  });

  it('2. its curl uploads the video, waits, fetches the results and the CSV', async () => {
    expect(token).toMatch(/^ftpat_/);
    freshWork();
    const ran = await bash(blocks('curl').join('\n'));
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^upload \S+$/m);
    expect(ran.stdout).toMatch(/^processed 5\/5 frames$/m);
    expect(ran.stdout).toContain(`0 s: `);
    const results = JSON.parse(readFileSync(path.join(work, 'results.json'), 'utf8'));
    expectChargerFrames(results.results.ocrResults);
    expectChargerCsv(readFileSync(path.join(work, 'charger.csv'), 'utf8'));
  }, 240_000);

  it('3. its Python script does the same with the standard library alone', async () => {
    expect(token).toMatch(/^ftpat_/);
    freshWork();
    writeFileSync(path.join(work, 'upload.py'), blocks('python')[0]!);
    const ran = await runProgram('python3', ['upload.py', 'charger.mp4'], { FRAMETEXT_URL: stack.base, FRAMETEXT_TOKEN: token });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^processed 5\/5 frames$/m);
    const results = JSON.parse(readFileSync(path.join(work, 'results.json'), 'utf8'));
    expectChargerFrames(results.results.ocrResults);
    expectChargerCsv(readFileSync(path.join(work, 'charger.csv'), 'utf8'));
  }, 240_000);

  it('4. its frametext command does the whole loop in one line, then lists, follows and exports', async () => {
    expect(token).toMatch(/^ftpat_/);
    freshWork();
    const [oneLine, script] = blocks('cli');
    const ran = await bash(oneLine!);
    expect(ran.code).toBe(0);
    // Not a terminal here: one plain line per change, no control characters, ending with the processed upload.
    expect(ran.stderr).not.toContain('\r');
    expect(ran.stderr).not.toContain('\u001b');
    expect(ran.stderr).toMatch(/^Uploading charger\.mp4 \(\d+(\.\d+)? KB\) as upload \S+, 1 credit\n/);
    expect(ran.stderr).toMatch(/^processed, 5\/5 frames$/m);
    expect(ran.stderr).toMatch(/^Wrote charger\.csv \(\d+ bytes\)$/m);
    expect(ran.stdout).toBe('');
    expectChargerCsv(readFileSync(path.join(work, 'charger.csv'), 'utf8'));

    const rest = await bash(script!);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toMatch(/^ID +STATUS +MODE +UPLOADED \(UTC\) +NAME$/m);
    expect(rest.stdout).toMatch(/^\S+ +processed +numerical +\d{4}-\d\d-\d\d \d\d:\d\d +charger$/m);
    expect(rest.stdout).toMatch(/^\S+ {2}processed, 5\/5 frames$/m);
    // A format the upload's view does not offer: the API's 400, exit 1.
    const id = /^(\S+) {2}processed/m.exec(rest.stdout)![1]!;
    const notOffered = await cli(['export', id, '--format', 'srt']);
    expect(notOffered).toMatchObject({ code: 1, stdout: '', stderr: 'frametext: The numerical view does not export srt; it exports csv, txt, json.\n' });
    // --out a folder: the file keeps the name FrameText gives it.
    const intoFolder = await cli(['export', id, '--format', 'csv', '--out', '.']);
    expect(intoFolder).toMatchObject({ code: 0, stderr: `Wrote ${path.join('.', 'charger-results.csv')} (${readFileSync(path.join(work, 'charger.csv')).length} bytes)\n` });
    expect(readFileSync(path.join(work, 'charger-results.csv'), 'utf8')).toBe(readFileSync(path.join(work, 'charger.csv'), 'utf8'));
    const exported = JSON.parse(readFileSync(path.join(work, 'charger.json'), 'utf8'));
    expect(exported).toMatchObject({ format: 'frametext.numerical', version: 1, upload: { name: 'charger', kind: 'Video' } });
    expectChargerFrames(exported.frames.map((f: { time: number; blocks: { text: string }[] }) => ({ t: f.time, detections: f.blocks })));
  }, 240_000);
});

/**
 * The Numerical view's export.csv of the charger, as the app saves it (a byte-order mark for spreadsheet programs):
 * Frame and Time, then the series Find the numbers picks, one row per frame.
 */
function expectChargerCsv(csv: string) {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = csv.slice(1).trimEnd().split(/\r?\n/);
  expect(header).toBe('Frame,Time,"Battery (%)","Power (kW)","Elapsed"');
  expect(rows.map((r) => r.split(',').slice(0, 2).join(','))).toEqual(['1,0:00', '2,0:01', '3,0:02', '4,0:03', '5,0:04']);
  const truth = [0, 1, 2, 3, 4].map((s) => {
    const v = chargerValues(s);
    return `${s + 1},0:0${s},${v.battery.replace('%', '')},${v.power.replace(' kW', '')},${v.elapsed}`;
  });
  expect(rows.filter((row, s) => row === truth[s]).length).toBeGreaterThanOrEqual(4);
}

describe('frametext against FrameText', () => {
  /** An upload token of this block's own, so its tests run alone too (vitest -t). */
  let own = '';
  beforeAll(async () => {
    const person = await stack.signUp();
    own = (await stack.api('POST', '/auth/api-tokens', { name: 'cli tests', scope: 'upload', password: person.password }, person.token)).body.token;
  });
  const frametext = (args: string[], env: Record<string, string> = {}, onStderr?: Parameters<typeof runProgram>[3]) => cli(args, { FRAMETEXT_TOKEN: own, ...env }, onStderr);

  it('prints the API’s own message when it refuses, and exits 1', async () => {
    const person = await stack.signUp();
    const read = await stack.api('POST', '/auth/api-tokens', { name: 'read only', scope: 'read', password: person.password }, person.token);
    freshWork();
    const refused = await frametext(['upload', 'charger.mp4', '--engine', 'server'], { FRAMETEXT_TOKEN: read.body.token });
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: 'frametext: This token can only read; create one with the upload scope on your Account page.\n' });

    const missing = await stack.api('GET', '/checkUploadStatus/00000000-0000-4000-8000-000000000000', undefined, read.body.token);
    expect(missing.status).toBe(404);
    const unknown = await frametext(['status', '00000000-0000-4000-8000-000000000000'], { FRAMETEXT_TOKEN: read.body.token });
    expect(unknown).toMatchObject({ code: 1, stderr: `frametext: ${missing.body.error.message}\n` });

    const revoked = await frametext(['list'], { FRAMETEXT_TOKEN: `ftpat_${'a'.repeat(32)}_${'B'.repeat(43)}` });
    expect(revoked).toMatchObject({ code: 1, stderr: 'frametext: This API token was revoked or does not exist.\n' });
  });

  it('uploads a photo series, named as the files are, and follows it to the end', async () => {
    freshWork();
    const photos = await makePhotoSeries({
      dir: work,
      photos: [
        { name: 'slide-1.jpg', lines: ['Quarterly results', 'Revenue up 12%'], capturedAt: new Date('2024-05-01T10:00:00Z'), width: 960, height: 540 },
        { name: 'slide-2.jpg', lines: ['Next steps', 'Hire two engineers'], capturedAt: new Date('2024-05-01T10:05:00Z'), width: 960, height: 540 },
      ],
    });
    const ran = await frametext(['upload', ...photos.map((p) => p.name), '--mode', 'presentation', '--engine', 'server', '--name', 'Slides', '--wait']);
    expect(ran.stderr).toMatch(/^processed, 2\/2 frames$/m);
    expect(ran.code).toBe(0);
    const id = ran.stdout.trim();
    const details = await stack.api('GET', `/getUploadDetails/${id}?mode=presentation`, undefined, own);
    expect(details.body.uploadData).toMatchObject({ uploadName: 'Slides', isVideo: false, mediaContent: 'presentation' });
    expect(JSON.stringify(details.body.results.ocrResults)).toContain('Quarterly');
  }, 180_000);

  it('Ctrl-C while waiting stops the waiting only, and says how to pick up again', async () => {
    freshWork();
    // With no OCR worker the upload waits in the queue until one is back.
    await stack.stopOcrWorkers();
    try {
      const started = await frametext(['upload', 'charger.mp4', '--engine', 'server', '--interval', '5']);
      expect(started.code).toBe(0);
      const id = started.stdout.trim();
      const stopped = await frametext(['status', id, '--wait'], {}, (stderr, child) => {
        if (/^(uploaded|processing)/m.test(stderr)) child.kill('SIGINT');
      });
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain(`Stopped following upload ${id}; it carries on. See where it is with: frametext status ${id} --wait\n`);
      const status = await stack.api('GET', `/checkUploadStatus/${id}`, undefined, own);
      expect(status.body.data.status).not.toBe('failed');
      // The same during upload --wait --export: the hint also gives the export to run afterwards.
      const uploading = await frametext(['upload', 'charger.mp4', '--engine', 'server', '--interval', '5', '--export', 'csv', '--out', 'later.csv'], {}, (stderr, child) => {
        if (/^(uploaded|processing)/m.test(stderr)) child.kill('SIGINT');
      });
      expect(uploading.code).toBe(130);
      const second = /as upload (\S+),/.exec(uploading.stderr)![1]!;
      expect(uploading.stderr).toContain(`Stopped following upload ${second}; it carries on. Pick up with: frametext status ${second} --wait; then: frametext export ${second} --format csv --out later.csv\n`);
      expect(existsSync(path.join(work, 'later.csv'))).toBe(false);
      // Its export is not there yet: the API's 409, and how to wait for it.
      const early = await frametext(['export', id, '--format', 'csv']);
      expect(early.code).toBe(1);
      expect(early.stderr).toMatch(new RegExp(`^frametext: This upload is still processing \\(status: \\w+\\); .* \\(frametext status ${id} --wait follows it until it is done\\)\n$`));
    } finally {
      await stack.addOcrWorker();
    }
  }, 120_000);
});
