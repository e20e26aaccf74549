import { spawn } from 'node:child_process';

export type TesseractFailure = 'timeout' | 'failed' | 'output-too-large' | 'missing';

/** A Tesseract run that did not give a result; `kind` decides whether the frame is retried or completed as failed. */
export class TesseractError extends Error {
  constructor(
    readonly kind: TesseractFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TesseractError';
  }
}

export interface TesseractOptions {
  binary: string;
  lang: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** The process environment (see tesseractEnv in config.ts: PATH, TESSDATA_PREFIX, OMP_THREAD_LIMIT=1). */
  env: Record<string, string>;
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string | number>;
}

const STDERR_KEEP = 2_000;

/** What one Tesseract process reads: an image on stdin, or a file listing image files (one page each, in order). */
export type TesseractInput = Buffer | { listFile: string };

/**
 * Runs Tesseract on an image given on stdin (any format Leptonica reads; we send PGM), or on the images a list file
 * names, and returns its TSV (pages numbered from 1 in the list's order). No shell is involved and no path comes
 * from a client. OMP_THREAD_LIMIT=1: one single-threaded process per core is several times faster than Tesseract's
 * own threads. On timeout the whole process group is killed.
 */
export function runTesseract(input: TesseractInput, opts: TesseractOptions): Promise<string> {
  const args = [Buffer.isBuffer(input) ? 'stdin' : input.listFile, 'stdout', '-l', opts.lang];
  for (const [k, v] of Object.entries(opts.settings ?? {})) args.push('-c', `${k}=${v}`);
  args.push('tsv');
  return new Promise((resolve, reject) => {
    const child = spawn(opts.binary, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: opts.env,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let settled = false;
    const finish = (err: TesseractError | null, value?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        killGroup(child.pid);
        reject(err);
      } else resolve(value ?? '');
    };
    const timer = setTimeout(() => finish(new TesseractError('timeout', `tesseract ran past ${opts.timeoutMs} ms`)), opts.timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > opts.maxOutputBytes) finish(new TesseractError('output-too-large', `tesseract wrote more than ${opts.maxOutputBytes} bytes`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk.toString('utf8').slice(0, STDERR_KEEP - stderr.length);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish(err.code === 'ENOENT' ? new TesseractError('missing', `tesseract not found at "${opts.binary}"`) : new TesseractError('failed', `tesseract could not start: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish(null, Buffer.concat(out).toString('utf8'));
      else finish(new TesseractError('failed', `tesseract exited with ${signal ?? `code ${code}`}: ${lastLine(stderr)}`));
    });
    // Tesseract may exit before reading all of stdin (an image it refuses); that EPIPE is reported by 'close'.
    child.stdin.on('error', () => undefined);
    if (Buffer.isBuffer(input)) child.stdin.end(input);
    else child.stdin.end();
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter((l) => l && !l.startsWith('Estimating resolution'));
  return lines.at(-1)?.slice(0, 300) ?? 'no message';
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Runs `tesseract <args>` for what it prints (both streams), rejecting when it cannot run or fails. */
function tesseractInfo(binary: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<string> {
  const command = `"${binary} ${args.join(' ')}"`;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run "${binary}": ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(text.trim());
      else reject(new Error(`${command} failed (exit ${code}): ${text.trim().slice(0, 200)}`));
    });
  });
}

/** Tesseract's version line: the readiness check that it runs at all. */
export async function tesseractVersion(binary: string, env: Record<string, string>, timeoutMs = 10_000): Promise<string> {
  const first = (await tesseractInfo(binary, ['--version'], env, timeoutMs)).split('\n')[0] ?? '';
  if (!/tesseract/i.test(first)) throw new Error(`"${binary} --version" did not name Tesseract: ${first.slice(0, 200)}`);
  return first;
}

/** The language models installed where this Tesseract looks (`eng`, `deu`, `chi_sim`...). */
export async function tesseractModels(binary: string, env: Record<string, string>, timeoutMs = 10_000): Promise<Set<string>> {
  const lines = (await tesseractInfo(binary, ['--list-langs'], env, timeoutMs)).split('\n').map((l) => l.trim());
  // The first line says where they are ("List of available languages in ... (N):").
  return new Set(lines.filter((l) => /^[a-z_/A-Z]+$/.test(l)));
}
