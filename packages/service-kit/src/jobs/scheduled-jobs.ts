import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/definitions.js';
import { repeat, type RepeatedTask } from './repeat.js';

/** Work a service runs again and again (sweeps, pruning, deliveries), declared to the kit with `deps.schedule`. */
export interface ScheduledJob {
  /** Names the job in logs and metrics ("reservation sweep"). */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /**
   * Runs once as soon as it is scheduled, then every `everyMs`. Otherwise the first run comes one period and up to a
   * quarter more after it is scheduled, at random, so replicas started together do not run together.
   */
  atStart?: boolean;
}

/** A scheduled job's handle: run it now (or join the run in progress). */
export interface JobHandle {
  run(): Promise<void>;
}

/**
 * Runs a service's jobs, each repeated by the kit's `repeat`. A run still going when the next is due is not started
 * twice; a failure is logged and counted, and the next run tries again. Every replica runs its own: a job must lock
 * what it takes (FOR UPDATE SKIP LOCKED). `stop()` runs no more and waits for the runs in progress.
 */
export class JobScheduler {
  private readonly tasks: RepeatedTask[] = [];
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly metrics?: Pick<ServiceMetrics, 'jobRuns' | 'jobDuration'>,
  ) {}

  schedule(job: ScheduledJob): JobHandle {
    if (this.stopped) return { run: () => Promise.resolve() };
    const task = repeat(() => this.runOnce(job), {
      everyMs: job.everyMs,
      atStart: job.atStart,
      firstAfterMs: job.atStart ? job.everyMs : job.everyMs * (1 + Math.random() / 4),
    });
    this.tasks.push(task);
    return { run: () => task.run() };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.tasks.map((task) => task.stop()));
  }

  private async runOnce(job: ScheduledJob): Promise<void> {
    const end = this.metrics?.jobDuration.startTimer({ job: job.name });
    try {
      await job.run();
      this.metrics?.jobRuns.inc({ job: job.name, outcome: 'done' });
    } catch (err) {
      this.metrics?.jobRuns.inc({ job: job.name, outcome: 'failed' });
      this.logger.error({ err, job: job.name }, `${job.name} failed; the next run tries again`);
    } finally {
      end?.();
    }
  }
}
