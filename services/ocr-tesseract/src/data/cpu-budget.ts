import { readFileSync } from 'node:fs';

/** A read spending from a budget: its process's meter, the threads it computes on, and how to stop it. */
interface MeteredRead {
  meter: { take(): number };
  threads: number;
  stop(): void;
}

/**
 * The CPU time a frame may spend in Tesseract, shared by all of its reads (the passes and crops of one frame, some
 * at once). Each read spends what its process used as it goes; once nothing is left, the reads under way are stopped.
 * CPU time, not wall-clock time: a busy machine slows a read without making it cost more.
 */
export class CpuBudget {
  private usedMs = 0;
  /** The reads metered now (`meter`). */
  private readonly reads = new Set<MeteredRead>();
  /** The next look at the reads' meters: when they could first have spent what remains. */
  private check: NodeJS.Timeout | undefined;

  constructor(readonly limitMs: number) {}

  spend(ms: number): void {
    this.usedMs += Math.max(0, ms);
  }

  get spentMs(): number {
    return this.usedMs;
  }

  get exhausted(): boolean {
    return this.usedMs >= this.limitMs;
  }

  /**
   * Spends a read's CPU time from the budget while it runs (`meter.take()`: what its process used since the last
   * take), and calls `stop` once the budget is spent. Nothing polls: a process on `threads` threads uses at most
   * `threads` ms of CPU a millisecond, so the budget looks at its reads' meters only when the reads under way could
   * first have spent what remains, and then again for what is left. The function returned ends the metering, spending
   * what the read used last.
   */
  meter(meter: { take(): number }, threads: number, stop: () => void): () => void {
    const read = { meter, threads: Math.max(1, threads), stop };
    this.reads.add(read);
    // One more read spends faster: what the others used so far is taken, and the next look comes sooner.
    this.look();
    return () => {
      if (!this.reads.delete(read)) return;
      this.spend(meter.take());
      if (this.reads.size === 0) clearTimeout(this.check);
    };
  }

  /** Spends what each read under way used; stops them all if that spent the budget, else looks again when it could. */
  private look(): void {
    clearTimeout(this.check);
    for (const read of this.reads) this.spend(read.meter.take());
    if (this.exhausted) {
      const stopped = [...this.reads];
      this.reads.clear();
      for (const read of stopped) read.stop();
      return;
    }
    let threads = 0;
    for (const read of this.reads) threads += read.threads;
    if (threads > 0) this.check = setTimeout(() => this.look(), (this.limitMs - this.usedMs) / threads);
  }
}

/** Clock ticks per second in /proc/<pid>/stat: 100 on Linux builds for every common architecture. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (ms, user and system) process `pid` has used, from /proc/<pid>/stat; undefined where there is no
 * /proc or the process is gone.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command's closing parenthesis: state is the 3rd field of the line, utime the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/**
 * Measures one process's CPU time from now on: each `take()` answers what it used since the last. Where /proc cannot
 * be read, the wall-clock time passed stands in for it (never less than the CPU time of one single-threaded process).
 */
export class CpuMeter {
  private lastCpu: number | undefined;
  private lastWall = performance.now();

  constructor(private readonly pid: number | undefined) {
    this.lastCpu = processCpuMs(pid);
  }

  take(): number {
    const cpu = this.lastCpu === undefined ? undefined : processCpuMs(this.pid);
    const wall = performance.now();
    const used = cpu !== undefined && this.lastCpu !== undefined ? cpu - this.lastCpu : wall - this.lastWall;
    this.lastCpu = cpu;
    this.lastWall = wall;
    return used;
  }
}
