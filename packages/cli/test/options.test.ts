// The command line, read without the network: what each command takes, and the sentence (and exit code 2) a
// mistake gets, pointing at the flag to fix.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseCommand, run } from '../src/cli.js';
import { UsageError } from '../src/errors.js';

function usageError(argv: string[]): UsageError {
  try {
    parseCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

/** A port nothing listens on (just let go). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Runs the CLI as `frametext argv...` with captured output and the given environment. */
async function cli(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: { write: (t) => (out += String(t)) }, stderr: { write: (t) => (err += String(t)) }, env });
  return { code, out, err };
}

describe('frametext upload', () => {
  it('reads the example of the issue into the request the API takes', () => {
    expect(parseCommand(['upload', 'video.mp4', '--mode', 'numerical', '--interval', '1', '--wait', '--export', 'csv'])).toEqual({
      command: 'upload',
      files: ['video.mp4'],
      mode: 'numerical',
      interval: 1,
      wait: true,
      export: 'csv',
    });
  });

  it('takes photos, the Region view’s name for captions, languages by code, Tesseract name or name, and connection flags', () => {
    expect(
      parseCommand(['upload', 'a.png', 'b.png', '--mode', 'region', '--language', 'eng', '--translate-to', 'German', '--engine', 'server', '--sort', 'timestamp', '--name', 'Lab', '--url', 'http://example.test:8080', '--token', 'ftpat_x']),
    ).toMatchObject({ files: ['a.png', 'b.png'], mode: 'captions', language: 'en', translateTo: 'de', engine: 'server', sort: 'timestamp', name: 'Lab', url: 'http://example.test:8080', token: 'ftpat_x', wait: false });
    expect(parseCommand(['upload', 'deck.mp4', '--mode', 'presentation', '--no-slide-detection'])).toMatchObject({ mode: 'presentation', slideDetection: false });
  });

  it('--export implies --wait (an export needs the upload processed)', () => {
    expect(parseCommand(['upload', 'v.mp4', '--export', 'json', '-o', 'out.json'])).toMatchObject({ wait: true, export: 'json', out: 'out.json' });
    expect(parseCommand(['upload', 'v.mp4', '--mode', 'region', '--export', 'srt'])).toMatchObject({ mode: 'captions', export: 'srt' });
  });

  it.each([
    [['upload'], 'upload needs a file: one video (.mp4, .mov) or one or more photos (.png, .jpg)'],
    [['upload', 'v.mp4', '--interval', '2'], '--interval must be one of 0.1, 0.25, 0.5, 1, 3, 5, 10, 15, 30, 45, 60, 120, 180, 240, 300, 600, 900, 1800, 2700, 3600 seconds (got "2")'],
    [['upload', 'v.mp4', '--mode', 'numbers'], '--mode must be one of numerical, captions, presentation, scroll, region (got "numbers")'],
    [['upload', 'v.mp4', '--mode', 'constructor'], '--mode must be one of numerical, captions, presentation, scroll, region (got "constructor")'],
    [['upload', 'v.mp4', '--engine', 'local'], '--engine must be one of cloud, server (got "local")'],
    [['upload', 'v.mp4', '--export', 'xlsx'], '--export must be one of csv, txt, srt, vtt, json (got "xlsx")'],
    [['upload', 'v.mp4', '--language', 'klingon'], '--language "klingon" is not a language FrameText reads: give a code such as en, de or zh-TW (or eng, or English)'],
    [['upload', 'v.mp4', '--out', 'x.csv'], '--out is where --export writes; add --export FORMAT'],
    [['upload', 'v.mp4', '--view', 'numerical'], '--view chooses what --export writes; add --export FORMAT'],
    [['upload', 'v.mp4', '--translate-to', 'de'], '--translate-to is for --mode region (captions)'],
    [['upload', 'v.mp4', '--export', 'srt'], 'the numerical view exports csv, txt, json, not srt'],
    [['upload', 'v.mp4', '--mode', 'region', '--export', 'csv', '--view', 'presentation'], 'the presentation view exports txt, not csv'],
    [['upload', 'v.mp4', '--mode'], '--mode needs a value'],
    [['upload', 'v.mp4', '--mode', '--wait'], '--mode needs a value'],
    [['upload', 'v.mp4', '--wait=yes'], '--wait takes no value'],
    [['upload', 'v.mp4', '--interva', '1'], 'upload has no option --interva'],
  ])('%j is refused: %s', (argv, message) => {
    const err = usageError(argv);
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(2);
    expect(err.command).toBe('upload');
  });
});

describe('status, export and list', () => {
  it('read their upload id and flags', () => {
    expect(parseCommand(['status', 'abc', '--wait', '--json'])).toEqual({ command: 'status', uploadId: 'abc', wait: true, json: true });
    expect(parseCommand(['export', 'abc', '--format', 'srt', '--view', 'region', '--out', 'captions.srt'])).toEqual({ command: 'export', uploadId: 'abc', format: 'srt', view: 'region', out: 'captions.srt' });
    expect(parseCommand(['list'])).toEqual({ command: 'list', json: false });
  });

  it.each([
    [['status'], 'status needs an upload id (frametext list shows them)'],
    [['status', 'a', 'b'], 'status takes one upload id, got 2: a b'],
    [['export', 'abc'], 'export needs --format: csv, txt, srt, vtt, json'],
    [['export', 'abc', '--format', 'pdf'], '--format must be one of csv, txt, srt, vtt, json (got "pdf")'],
    [['export', 'abc', '--format', 'csv', '--view', 'chart'], '--view must be one of presentation, numerical, region, scroll (got "chart")'],
    [['export', 'abc', '--format', 'vtt', '--view', 'numerical'], 'the numerical view exports csv, txt, json, not vtt'],
    [['list', 'mine'], 'list takes no argument (got mine)'],
  ])('%j is refused: %s', (argv, message) => {
    expect(usageError(argv).message).toBe(message);
  });

  it('an unknown command, or an option before the command, says what comes first', () => {
    expect(usageError(['uplod', 'v.mp4']).message).toBe('unknown command "uplod": use upload, status, export or list');
    expect(usageError(['--wait', 'status']).message).toBe('the command comes first: frametext upload|status|export|list --wait ...');
    expect(usageError([]).message).toBe('no command given: upload, status, export or list');
  });
});

describe('running frametext', () => {
  it('--help prints the commands and exits 0; a command’s --help its options', async () => {
    const general = await cli(['--help']);
    expect(general.code).toBe(0);
    expect(general.out).toContain('frametext upload <file...> [options]');
    expect(general.out).toContain('FRAMETEXT_TOKEN');
    const upload = await cli(['upload', '--help']);
    expect(upload.code).toBe(0);
    expect(upload.out).toMatch(/--interval SECONDS +a video's time between frames: one of 0\.1, 0\.25/);
    expect((await cli(['help', 'export'])).out).toContain('Usage: frametext export <uploadId> --format FORMAT');
  });

  it('a usage mistake exits 2 with one sentence and where to look, no stack', async () => {
    const { code, out, err } = await cli(['upload', 'v.mp4', '--interval', '2']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe('frametext: --interval must be one of 0.1, 0.25, 0.5, 1, 3, 5, 10, 15, 30, 45, 60, 120, 180, 240, 300, 600, 900, 1800, 2700, 3600 seconds (got "2")\nRun frametext upload --help for the options.\n');
  });

  it('without a token it says how to get one (exit 2) before touching the network', async () => {
    const { code, err } = await cli(['list'], { url: 'http://127.0.0.1:9' });
    expect(code).toBe(2);
    expect(err).toContain('no API token: set FRAMETEXT_TOKEN=ftpat_... (create one on the Account page, under API tokens) or pass --token');
  });

  it('a bad address is a usage mistake; an address with nothing listening says so (exit 1)', async () => {
    const bad = await cli(['list', '--url', 'localhost:8080'], { token: 'ftpat_x' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--url must be FrameText\'s http(s) address, such as http://localhost:8080 (got "localhost:8080")');
    const port = await closedPort();
    const nobody = await cli(['list'], { token: 'ftpat_x', url: `http://127.0.0.1:${port}` });
    expect(nobody.code).toBe(1);
    expect(nobody.err).toBe(`frametext: cannot reach FrameText at http://127.0.0.1:${port} (ECONNREFUSED). Is it running? Set FRAMETEXT_URL or --url to its address.\n`);
  });

  it('files are checked before any request: missing, of another kind, or a video among several', async () => {
    const env = { token: 'ftpat_x', url: 'http://127.0.0.1:1' };
    expect((await cli(['upload', '/nonexistent/v.mp4'], env)).err).toContain('frametext: no such file: /nonexistent/v.mp4');
    expect((await cli(['upload', 'notes.pdf'], env)).err).toContain('notes.pdf is neither a video (.mp4, .mov) nor a photo (.png, .jpg, .jpeg)');
    const several = await cli(['upload', 'a.mp4', 'b.png'], env);
    expect(several.code).toBe(2);
    expect(several.err).toContain('Please upload one .mov or .mp4 at a time.');
    expect((await cli(['upload', 'a.png', 'b.jpg'], env)).err).toContain('Please ensure multiple uploads are the same file type.');
    expect((await cli(['upload', 'a.png', '--interval', '1'], env)).err).toContain('--interval is for a video; each photo is one frame');
  });
});
