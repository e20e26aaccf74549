import { Limiter } from '@frametext/service-kit';
import { CloudApiError, classifyGoogleError, imageError, retryWait, sleep, type RetryPolicy } from './errors.js';
import type { VisionImageResponse } from './vision-text.js';

/** Sends images to Vision in one request and returns one answer per image, in order (the Vision client, or a fake). */
export type VisionAnnotator = (images: Buffer[]) => Promise<VisionImageResponse[]>;

export interface BatchOptions {
  /** Images per request (the API takes at most 16). */
  maxImages: number;
  /** Base64 bytes per request (the API refuses JSON bodies over 10 MB). */
  maxBytes: number;
  /** How long the first image waits for others before its request leaves. */
  windowMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  retry: RetryPolicy;
}

interface Pending {
  image: Buffer;
  bytes: number;
  resolve(response: VisionImageResponse): void;
  reject(err: CloudApiError): void;
}

const base64Bytes = (image: Buffer) => Math.ceil(image.length / 3) * 4;

/**
 * Gathers the frames that arrive within a few tens of milliseconds of each other into one Vision request (up to
 * 16 images and the request size limit), which costs one round trip instead of sixteen. Each frame's promise
 * settles with its own answer:
 * - resolved with the image's response (text, or none);
 * - rejected with kind `image` when Vision refused that image alone (the others are unaffected);
 * - rejected with kind `engine` (credentials, permission, daily quota) for every image of the request;
 * - rejected with kind `transient` or `rate-limited` once the retries here are spent (the bus retries later).
 * A 429 or 5xx for the request is retried with growing waits; images that failed alone for a passing reason are
 * retried without the rest; a request refused as a whole (400, e.g. too large) is sent again image by image.
 */
export class VisionBatcher {
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly limiter: Limiter;
  /** Requests sent, and the images in each (for logs and tests). */
  readonly sent: number[] = [];

  constructor(
    private readonly annotate: VisionAnnotator,
    private readonly opts: BatchOptions,
  ) {
    this.limiter = new Limiter(opts.concurrency);
  }

  read(image: Buffer): Promise<VisionImageResponse> {
    return new Promise((resolve, reject) => {
      const bytes = base64Bytes(image);
      if (this.pending.length > 0 && this.pendingBytes + bytes > this.opts.maxBytes) this.flush();
      this.pending.push({ image, bytes, resolve, reject });
      this.pendingBytes += bytes;
      if (this.pending.length >= this.opts.maxImages || this.opts.windowMs === 0) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length > 0) void this.limiter.run(() => this.send(batch));
  }

  private async send(batch: Pending[]): Promise<void> {
    let todo = batch;
    for (let n = 0; ; n++) {
      let responses: VisionImageResponse[];
      try {
        this.sent.push(todo.length);
        responses = await this.annotate(todo.map((p) => p.image));
      } catch (raw) {
        const err = classifyGoogleError(raw, 'vision');
        if (err.kind === 'invalid') {
          if (todo.length > 1) {
            // Something in the request was refused as a whole: find out which image, one at a time.
            await Promise.all(todo.map((p) => this.send([p])));
          } else {
            todo[0]!.reject(new CloudApiError('image', 'vision', err.reason, err.message, err.status));
          }
          return;
        }
        if (err.retryable && n < this.opts.retry.retries) {
          await (this.opts.retry.sleep ?? sleep)(retryWait(this.opts.retry, n));
          continue;
        }
        for (const p of todo) p.reject(err);
        return;
      }

      const again: Pending[] = [];
      let lastError: CloudApiError | undefined;
      todo.forEach((p, i) => {
        const response = responses[i];
        if (!response) {
          lastError = new CloudApiError('transient', 'vision', 'Cloud AI did not answer for this frame.', `Vision answered ${responses.length} images of ${todo.length}`);
          again.push(p);
        } else if (response.error && (response.error.code ?? 0) !== 0) {
          const err = imageError(response.error);
          if (err.retryable) {
            lastError = err;
            again.push(p);
          } else p.reject(err);
        } else p.resolve(response);
      });
      if (again.length === 0) return;
      if (n >= this.opts.retry.retries) {
        for (const p of again) p.reject(lastError!);
        return;
      }
      todo = again;
      await (this.opts.retry.sleep ?? sleep)(retryWait(this.opts.retry, n));
    }
  }

  /** Sends what is waiting now (at shutdown). */
  drain(): void {
    this.flush();
  }
}
