import { readFileSync } from 'node:fs';

/**
 * The CPU time a frame may spend in Tesseract, shared by all of its reads (the passes and crops of one frame, some
 * at once). Each read spends what its process used as it goes; once nothing is left, the read under way is stopped.
 * CPU time, not wall-clock time: a busy machine slows a read without making it cost more.
 */
export class CpuBudget {
  private usedMs = 0;

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
