import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuMeter, type CpuBudget } from './cpu-budget.js';
import { TesseractError, type TesseractOptions } from './tesseract.js';

/** A 2×2 white PGM: read after each image, its page row says the image's rows are all out. */
const BLANK_PAGE = Buffer.concat([Buffer.from('P5\n2 2\n255\n'), Buffer.alloc(4, 255)]);
/** A process with nothing to read for this long ends, and gives its memory back. */
const IDLE_MS = 30_000;
/** How long a process asked to end may take before it is killed. */
const END_GRACE_MS = 5_000;
const STDERR_KEEP = 2_000;

/** A handle that can keep Node's event loop running or not: the child process and its pipes. */
interface Refable {
  ref(): unknown;
  unref(): unknown;
}

interface Reading {
  /** The image's page number in this process's output (1, 3, 5...: each image is followed by the blank page). */
  page: number;
  file: string;
  rows: string[];
  bytes: number;
  timer: NodeJS.Timeout;
  /** Ends the spending of the read's CPU time from the frame's budget (CpuBudget.meter), spending what it used last. */
  endMetering?: () => void;
  resolve(tsv: string): void;
  reject(err: unknown): void;
}

/**
 * One Tesseract process that stays up and reads images one after another. Started with `stream_filelist`, it takes
 * image paths on stdin, one a line, and writes each page's TSV rows as soon as it has read the page. Starting
 * Tesseract and loading its model costs about 60 ms of CPU, as much as reading a plain 720p frame; a process that
 * stays up pays it once, and frames that come one at a time wait for no batch to fill.
 *
 * A page's rows come in one write, but nothing marks the last row of the last page. So each image is followed by a
 * blank page (well under a millisecond of Tesseract's time): when the blank's page row comes, the image's rows are
 * complete. A read that passes its timeout or writes too much is killed with its process group, and a process that
 * exits while reading fails that image alone; either way the process is over (`alive` is false) and the pool starts
 * another. Images are written to a folder of the process's own, removed as they are read and with the folder when
 * the process ends.
 */
export class TesseractProcess {
  /** Images given to this process so far. */
  images = 0;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly blank: string;
  /** The threads Tesseract computes on: what its CPU time can grow by, at most, per millisecond. */
  private readonly threads: number;
  private readonly exited: Promise<void>;
  private header = '';
  private partial = '';
  private stderr = '';
  private nextPage = 1;
  private current: Reading | undefined;
  /** A read is under way (its image being written, or Tesseract reading it). */
  private reading = false;
  /** Why it can read no more: it was killed, failed or exited. */
  private failure: TesseractError | undefined;
  /** It was asked to end once it has read what it was given. */
  private ending = false;
  private idleTimer: NodeJS.Timeout | undefined;

  /** Starts a process reading with `opts.lang`, its images kept in a new folder under `scratchDir`. */
  static async start(opts: TesseractOptions, scratchDir = tmpdir()): Promise<TesseractProcess> {
    const dir = await mkdtemp(join(scratchDir, 'frametext-tesseract-'));
    await writeFile(join(dir, 'blank.pgm'), BLANK_PAGE);
    return new TesseractProcess(opts, dir);
  }

  private constructor(
    private readonly opts: TesseractOptions,
    private readonly dir: string,
  ) {
    this.blank = join(dir, 'blank.pgm');
    this.threads = threadsOf(opts.env);
    const args = ['-', 'stdout', '-l', opts.lang, '-c', 'stream_filelist=1', 'tsv'];
    // Its own process group, so a kill reaches anything it started.
    this.child = spawn(opts.binary, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: opts.env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.take(text));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEEP)));
    // The process may be gone before it reads what is written to it; that is reported by 'close'.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      const gone = (err: TesseractError) => {
        this.settle(err);
        this.failure ??= err;
        clearTimeout(this.idleTimer);
        void rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
        resolve();
      };
      this.child.on('error', (err: NodeJS.ErrnoException) => {
        const failure = err.code === 'ENOENT' ? new TesseractError('missing', `tesseract not found at "${opts.binary}"`) : new TesseractError('failed', `tesseract could not start: ${err.message}`);
        // A process that never started sends no 'close'.
        if (this.child.pid === undefined) gone(failure);
        else this.fail(failure);
      });
      this.child.on('close', (code, signal) => gone(new TesseractError('failed', `tesseract exited with ${signal ?? `code ${code}`}: ${lastLine(this.stderr)}`)));
    });
    this.keepsNodeUp(false);
  }

  get lang(): string {
    return this.opts.lang;
  }

  /** Whether it can read more: not ended, killed or failed. */
  get alive(): boolean {
    return !this.failure && !this.ending;
  }

  /**
   * The TSV of one image (PGM, PPM or any format Leptonica reads), header included. One read at a time. With a
   * `budget`, the CPU time the read uses is spent from it, and the read is stopped (kind `budget`) once it is spent.
   */
  async read(image: Buffer, budget?: CpuBudget): Promise<string> {
    if (this.reading) throw new Error('a TesseractProcess reads one image at a time');
    this.reading = true;
    clearTimeout(this.idleTimer);
    this.images++;
    const file = join(this.dir, `${this.images}.pnm`);
    try {
      if (this.alive) await writeFile(file, image);
      // It may have failed or exited meanwhile (a missing binary is reported just after the start).
      if (!this.alive) throw this.failure ?? new TesseractError('failed', 'this tesseract process has ended');
    } catch (err) {
      this.reading = false;
      throw err;
    }
    const page = this.nextPage;
    this.nextPage += 2;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new TesseractError('timeout', `tesseract ran past ${this.opts.timeoutMs} ms`)), this.opts.timeoutMs);
      const reading: Reading = { page, file, rows: [], bytes: 0, timer, resolve, reject };
      this.current = reading;
      this.stderr = '';
      this.keepsNodeUp(true);
      this.child.stdin.write(`${file}\n${this.blank}\n`);
      if (budget) {
        const stop = () => this.fail(new TesseractError('budget', `the frame used its ${budget.limitMs} ms of Tesseract CPU time`));
        reading.endMetering = budget.meter(new CpuMeter(this.child.pid), this.threads, stop);
      }
    });
  }

  /** Ends the process once it has read what it was given (killing it if it takes longer than a few seconds). */
  async end(): Promise<void> {
    if (this.alive) {
      this.ending = true;
      this.child.stdin.end();
    }
    const kill = setTimeout(() => killGroup(this.child.pid), END_GRACE_MS);
    await this.exited;
    clearTimeout(kill);
  }

  /** Rows of output: the header once, then each page's rows; the blank page's row completes the image before it. */
  private take(text: string): void {
    const reading = this.current;
    if (reading) {
      reading.bytes += Buffer.byteLength(text);
      if (reading.bytes > this.opts.maxOutputBytes) {
        this.fail(new TesseractError('output-too-large', `tesseract wrote more than ${this.opts.maxOutputBytes} bytes`));
        return;
      }
    }
    const rows = (this.partial + text).split('\n');
    this.partial = rows.pop() ?? '';
    for (const row of rows) {
      if (!this.header) {
        this.header = row;
        continue;
      }
      if (!this.current) continue;
      const page = Number(row.split('\t', 2)[1]);
      if (page === this.current.page) this.current.rows.push(row);
      else if (page === this.current.page + 1) this.settle(null, [this.header, ...this.current.rows].join('\n'));
    }
  }

  /** Settles the image being read; the process stays up for the next one. */
  private settle(err: TesseractError | null, tsv = ''): void {
    const reading = this.current;
    if (!reading) return;
    reading.endMetering?.();
    this.current = undefined;
    this.reading = false;
    clearTimeout(reading.timer);
    void rm(reading.file, { force: true }).catch(() => undefined);
    this.keepsNodeUp(false);
    if (err) reading.reject(err);
    else {
      reading.resolve(tsv);
      if (this.alive) this.idleTimer = setTimeout(() => void this.end(), IDLE_MS).unref();
    }
  }

  /** Fails the image being read, if any, and kills the process: it is not asked to read again. */
  private fail(err: TesseractError): void {
    this.settle(err);
    if (!this.failure) {
      this.failure = err;
      killGroup(this.child.pid);
    }
  }

  /** While it reads, the process keeps Node running; an idle one does not hold a finished script open. */
  private keepsNodeUp(busy: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as Refable[]) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }
}

/**
 * The threads a Tesseract process may compute on: OMP_THREAD_LIMIT of its environment (1, tesseractEnv in config.ts),
 * else OpenMP's default of one per core.
 */
function threadsOf(env: Record<string, string>): number {
  const limit = Number(env.OMP_THREAD_LIMIT);
  return Number.isInteger(limit) && limit >= 1 ? limit : availableParallelism();
}

/** The line of Tesseract's messages that says what went wrong (not its progress lines). */
function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l && !/^(Estimating resolution|Page \d+ :|Error during processing|Detected \d+ diacritics)/.test(l));
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
