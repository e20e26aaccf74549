import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeat } from '../src/jobs/repeat.js';

/** A task whose runs end when the test says so. */
function controlledTask() {
  const runs: (() => void)[] = [];
  const task = () => new Promise<void>((resolve) => void runs.push(resolve));
  return { runs, task };
}

describe('a repeated task', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start when asked, then every period', async () => {
    const { runs, task } = controlledTask();
    const repeated = repeat(task, { everyMs: 1_000, atStart: true });
    expect(runs).toHaveLength(1);
    runs[0]!();
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    runs[1]!();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(3);
    runs[2]!();
    await repeated.stop();
  });

  it('comes first after firstAfterMs, and never runs twice at once: a run due while one is going joins it', async () => {
    const { runs, task } = controlledTask();
    const repeated = repeat(task, { everyMs: 1_000, firstAfterMs: 5_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    // Three periods pass while the run hangs, and a caller asks too: still the one run.
    await vi.advanceTimersByTimeAsync(3_000);
    const asked = repeated.run();
    expect(runs).toHaveLength(1);
    runs[0]!();
    await asked;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toHaveLength(2);
    runs[1]!();
    await repeated.stop();
  });

  it('stops by waiting for the run in progress, and runs no more', async () => {
    const { runs, task } = controlledTask();
    const repeated = repeat(task, { everyMs: 1_000, atStart: true });
    let stopped = false;
    const stopping = repeated.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    runs[0]!();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    await repeated.run();
    expect(runs).toHaveLength(1);
  });

  it('goes on after a run that failed; the failure is the caller\'s when it asked for that run', async () => {
    let calls = 0;
    const repeated = repeat(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database unreachable');
      },
      { everyMs: 1_000 },
    );
    await expect(repeated.run()).rejects.toThrow('database unreachable');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    await repeated.stop();
  });
});
