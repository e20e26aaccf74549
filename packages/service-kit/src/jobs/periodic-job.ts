import type { Logger } from '../logging/logger.js';

export interface PeriodicJob {
  /** Runs the job now, or answers the run in progress. */
  run(): Promise<void>;
  /** Runs no more; waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `job` every `intervalMs`. A run still going when the next is due is not started twice; a failure is logged and
 * the next run tries again. Every replica runs its own: a job must lock what it takes (FOR UPDATE SKIP LOCKED).
 */
export function startPeriodicJob(name: string, intervalMs: number, job: () => Promise<unknown>, logger: Logger): PeriodicJob {
  let current: Promise<void> | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    if (stopped) return current ?? Promise.resolve();
    current ??= job()
      .then(
        () => undefined,
        (err: unknown) => logger.error({ err }, `${name} failed; the next run tries again`),
      )
      .finally(() => {
        current = undefined;
      });
    return current;
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
