import { spawn } from 'node:child_process';

/** `budget`: the frame's CPU budget ran out (cpu-budget.ts); the frame was read, to its limit. */
export type TesseractFailure = 'timeout' | 'failed' | 'output-too-large' | 'missing' | 'budget';

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
