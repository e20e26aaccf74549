import { STATUS_POLL_MS } from '@frametext/contracts/rules';
import type { UploadStatusResponse } from '@frametext/contracts';
import type { FrameTextApi } from './api.js';
import { ApiError, CliError } from './errors.js';
import { describeStatus, type ProgressLine, type UploadStatus } from './progress.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function fetchStatus(api: FrameTextApi, uploadId: string): Promise<UploadStatus> {
  return (await api.json<UploadStatusResponse>('GET', `/checkUploadStatus/${encodeURIComponent(uploadId)}`)).data;
}

/**
 * Polls an upload's status at the web app's pace (every 2.5 s), showing each change on `progress`, until it is
 * processed (answered) or failed (a CliError with the reason). A 429 waits as long as Retry-After says.
 */
export async function waitUntilDone(api: FrameTextApi, uploadId: string, progress: ProgressLine): Promise<UploadStatus> {
  for (;;) {
    let pause = STATUS_POLL_MS;
    try {
      const status = await fetchStatus(api, uploadId);
      progress.show(describeStatus(status));
      if (status.status === 'processed') return status;
      if (status.status === 'failed') throw new CliError(`upload ${uploadId} failed: ${status.failureReason ?? 'FrameText gave no reason'}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 429)) {
        progress.end();
        throw err;
      }
      pause = Math.max(STATUS_POLL_MS, (err.retryAfterSeconds ?? 5) * 1000);
    }
    await sleep(pause);
  }
}
