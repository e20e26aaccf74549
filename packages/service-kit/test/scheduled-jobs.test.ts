import { describe, expect, it } from 'vitest';
import { JobScheduler } from '../src/jobs/scheduled-jobs.js';
import { createLogger } from '../src/logging/logger.js';
import { createServiceMetrics } from '../src/metrics/definitions.js';

const HOUR = 60 * 60_000;

/** A job whose runs end when the test says so. */
function controlledJob() {
  const runs: { end: () => void; fail: (err: Error) => void }[] = [];
  const run = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ end: resolve, fail: reject });
    });
  return { runs, run };
}

function scheduler() {
  const lines: string[] = [];
  const logger = createLogger('jobs-test', 'error', { write: (line: string) => void lines.push(line) });
  const metrics = createServiceMetrics('jobs-test');
  const runsCounted = async (outcome: string) => (await metrics.jobRuns.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  return { jobs: new JobScheduler(logger, metrics), lines, runsCounted };
}

describe('scheduled jobs', () => {
  it('never runs a job twice at once: asking again joins the run in progress', async () => {
    const { jobs } = scheduler();
    const job = controlledJob();
    const handle = jobs.schedule({ name: 'sweep', everyMs: HOUR, run: job.run });
    const first = handle.run();
    const second = handle.run();
    expect(job.runs).toHaveLength(1);
    job.runs[0]!.end();
    await Promise.all([first, second]);
    void handle.run();
    expect(job.runs).toHaveLength(2);
    job.runs[1]!.end();
    await jobs.stop();
  });

  it('runs a job declared to run at start at once', async () => {
    const { jobs } = scheduler();
    const job = controlledJob();
    jobs.schedule({ name: 'retention', everyMs: HOUR, atStart: true, run: job.run });
    expect(job.runs).toHaveLength(1);
    job.runs[0]!.end();
    await jobs.stop();
  });

  it('logs and counts a failed run, and the next run goes ahead', async () => {
    const { jobs, lines, runsCounted } = scheduler();
    const job = controlledJob();
    const handle = jobs.schedule({ name: 'sweep', everyMs: HOUR, run: job.run });
    const failing = handle.run();
    job.runs[0]!.fail(new Error('database unreachable'));
    await failing;
    expect(await runsCounted('failed')).toBe(1);
    expect(lines.join('')).toContain('sweep failed; the next run tries again');
    const next = handle.run();
    job.runs[1]!.end();
    await next;
    expect(await runsCounted('done')).toBe(1);
    await jobs.stop();
  });

  it('stops by waiting for the run in progress, and runs no more', async () => {
    const { jobs } = scheduler();
    const job = controlledJob();
    const handle = jobs.schedule({ name: 'delivery', everyMs: HOUR, run: job.run });
    void handle.run();
    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    job.runs[0]!.end();
    await stopping;
    expect(stopped).toBe(true);
    await handle.run();
    expect(job.runs).toHaveLength(1);
  });
});
