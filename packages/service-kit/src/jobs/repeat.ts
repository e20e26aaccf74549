/** A task run again and again on a timer (see {@link repeat}). */
export interface RepeatedTask {
  /** Runs the task now, or joins the run in progress. Once stopped: the run in progress, if any, and no new one. */
  run(): Promise<void>;
  /** Runs the task no more; answers once the run in progress, if any, has ended. */
  stop(): Promise<void>;
}

export interface RepeatOptions {
  everyMs: number;
  /** When the first timed run comes; `everyMs` unless given. */
  firstAfterMs?: number;
  /** Runs once at once too, before the timed runs. */
  atStart?: boolean;
}

/**
 * The kit's one way of running work again and again: the services' scheduled jobs (JobScheduler), the outbox relay's
 * sweep and the refresh of the ended sessions all run through it. A run still going when the next is due is not
 * started twice: the next comes `everyMs` after it was due. `stop()` runs no more and waits for the run in progress.
 * The timer does not keep the process alive. `task` logs its own failures: a timed run's rejection is dropped
 * (`run()` answers it to its caller).
 */
export function repeat(task: () => Promise<unknown>, opts: RepeatOptions): RepeatedTask {
  let current: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    if (stopped) return current ?? Promise.resolve();
    current ??= (async () => {
      await task();
    })().finally(() => {
      current = undefined;
    });
    return current;
  };
  const next = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      run().catch(() => undefined);
      next(opts.everyMs);
    }, delayMs);
    timer.unref();
  };
  if (opts.atStart) run().catch(() => undefined);
  next(opts.firstAfterMs ?? opts.everyMs);
  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => undefined);
    },
  };
}
