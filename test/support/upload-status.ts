// Waiting for an upload, the one way the tests do it: look at its status as the SPA does (GET /checkUploadStatus)
// until it is where the test wants it.

/** An upload's status as GET /checkUploadStatus answers it (the fields the tests read). */
export interface UploadStatus {
  status: string;
  framesDone: number;
  framesTotal: number | null;
  failureReason: string | null;
  [field: string]: unknown;
}

export interface UntilOptions {
  /** Where the test wants the upload (default: it has ended, processed or failed). */
  done?: (status: UploadStatus) => boolean;
  timeoutMs?: number;
  /** Between looks; each look is a request of the person's budget. */
  intervalMs?: number;
  /** Told every status seen on the way. */
  seen?: (status: UploadStatus) => void;
}

export const ended = (s: UploadStatus) => s.status === 'processed' || s.status === 'failed';

/**
 * Looks at an upload's status with `look` (one GET /checkUploadStatus) until `done` holds, and answers that status.
 * It looks again after a 404 (the moment between uploadComplete's answer and results learning of the upload, results'
 * README) and after a 5xx (a service the test restarts); any other answer is an error of the test.
 */
export async function followUpload(look: () => Promise<{ status: number; body: any }>, uploadID: string, { done = ended, timeoutMs = 300_000, intervalMs = 50, seen }: UntilOptions = {}): Promise<UploadStatus> {
  const deadline = Date.now() + timeoutMs;
  let last: UploadStatus | undefined;
  while (Date.now() < deadline) {
    const res = await look();
    if (res.status !== 200 && res.status !== 404 && res.status < 500) throw new Error(`checkUploadStatus of ${uploadID} answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.status === 200) {
      last = res.body.data as UploadStatus;
      seen?.(last);
      if (done(last)) return last;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`upload ${uploadID} did not get there within ${timeoutMs / 1000} s; last status ${JSON.stringify(last)}`);
}
