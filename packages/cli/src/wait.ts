import { STATUS_POLL_MS } from '@frametext/contracts/rules';
import type { UploadStatusResponse } from '@frametext/contracts';
import type { FrameTextApi } from './api.js';
import { ApiError, CliError } from './errors.js';
import { describeStatus, type ProgressLine, type UploadStatus } from './progress.js';

/**
 * Just after POST /uploadComplete answers, the status endpoint may answer 404 for a moment while the results service
 * learns of the upload from its event. Following an upload tolerates a 404 this long from its start (the upload the
 * CLI just completed, or an id given to `status --wait` right after `upload`); past it, the id is wrong.
 */
export const JUST_COMPLETED_GRACE_MS = 30_000;
export const GIVEN_ID_GRACE_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function fetchStatus(api: FrameTextApi, uploadId: string): Promise<UploadStatus> {
  return (await api.json<UploadStatusResponse>('GET', `/checkUploadStatus/${encodeURIComponent(uploadId)}`)).data;
}

/**
 * Polls an upload's status at the web app's pace (every 2.5 s), showing each change on `progress`, until it is
 * processed (answered) or failed (a CliError with the reason). A 429 waits as long as Retry-After says.
 */
export async function waitUntilDone(api: FrameTextApi, uploadId: string, progress: ProgressLine, opts: { notFoundGraceMs: number }): Promise<UploadStatus> {
  const started = Date.now();
  for (;;) {
    let pause = STATUS_POLL_MS;
    try {
      const status = await fetchStatus(api, uploadId);
      progress.show(describeStatus(status));
      if (status.status === 'processed') return status;
      if (status.status === 'failed') throw new CliError(`upload ${uploadId} failed: ${status.failureReason ?? 'FrameText gave no reason'}`);
    } catch (err) {
      const missingForNow = err instanceof ApiError && err.status === 404 && Date.now() - started < opts.notFoundGraceMs;
      const limited = err instanceof ApiError && err.status === 429;
      if (!missingForNow && !limited) {
        progress.end();
        throw err;
      }
      if (missingForNow) progress.show('waiting for FrameText to list the upload');
      if (limited) pause = Math.max(STATUS_POLL_MS, (err.retryAfterSeconds ?? 5) * 1000);
    }
    await sleep(pause);
  }
}
