import type { EventData } from '@frametext/contracts';
import { StorageNotFoundError } from '@frametext/service-kit';
import { CloudApiError, REASONS, classifyGoogleError, withRetries, type RetryPolicy } from './errors.js';
import { FrameUnreadableError, prepareImage, type ImageLimits } from './frame-image.js';
import { translateDetections, translationPlan, type Translator } from './translate.js';
import { readVisionText, type VisionImageResponse } from './vision-text.js';

export type OcrRequest = EventData<'ocr.requested.v1'>;
export type OcrResult = EventData<'ocr.completed.v1'>;
export type UploadFailure = EventData<'upload.failed.v1'>;

/** What reading one frame leads to: its result, or the end of its whole upload. */
export type FrameOutcome = { kind: 'completed'; result: OcrResult } | { kind: 'upload-failed'; failure: UploadFailure };

export interface CloudOcrDeps {
  readFrame(objectKey: string): Promise<Buffer>;
  /** One image through Vision (VisionBatcher.read): its answer, or a sorted CloudApiError. */
  annotate(image: Buffer): Promise<VisionImageResponse>;
  translate: Translator;
  translateRetry: RetryPolicy;
  limits: ImageLimits;
  /** Uploads this worker has already failed, with the reason: their other frames are not sent to Google. */
  failedUploads: FailedUploads;
}

/** The last uploads failed here (bounded), so a bad key costs one refused call per upload, not one per frame. */
export class FailedUploads {
  private readonly reasons = new Map<string, string>();
  constructor(private readonly limit = 500) {}

  add(uploadId: string, reason: string): void {
    this.reasons.delete(uploadId);
    this.reasons.set(uploadId, reason);
    if (this.reasons.size > this.limit) this.reasons.delete(this.reasons.keys().next().value!);
  }

  get(uploadId: string): string | undefined {
    return this.reasons.get(uploadId);
  }
}

/**
 * Reads one frame with Cloud Vision (and translates its captions when asked), outside any transaction.
 * - Text found, or none: completed, with detections in the Basic engine's shape.
 * - The frame is missing, not an image, or Vision refused that image: completed with a failureReason, so the
 *   upload still finishes and the frame is not charged.
 * - Google refused the engine itself (credentials, permission, daily quota, a translation it cannot do): the whole
 *   upload fails with the reason (billing releases its credits). Without the owner's id in the request (an older
 *   producer) the frame completes with that reason instead.
 * - Google busy or down: thrown, for the bus to retry later; on the last delivery a frame that still got no answer
 *   completes with a failureReason, and a rate limit that outlasted every retry counts as spent quota.
 * Anything else (storage or our own trouble) is thrown and retried by the bus.
 */
export async function readCloudFrame(request: OcrRequest, attempt: number, maxAttempts: number, deps: CloudOcrDeps): Promise<FrameOutcome> {
  const started = performance.now();
  const base = { uploadId: request.uploadId, frameIndex: request.frameIndex, timestampMs: request.timestampMs, engine: request.engine };
  const elapsed = () => Math.round(performance.now() - started);
  const frameFailed = (failureReason: string): FrameOutcome => ({ kind: 'completed', result: { ...base, detections: [], durationMs: elapsed(), failureReason } });
  const uploadFailed = (reason: string): FrameOutcome => {
    if (!request.userId) return frameFailed(reason);
    deps.failedUploads.add(request.uploadId, reason);
    return { kind: 'upload-failed', failure: { uploadId: request.uploadId, userId: request.userId, reason, stage: 'ocr' } };
  };

  const known = deps.failedUploads.get(request.uploadId);
  if (known) return uploadFailed(known);

  let bytes: Buffer;
  try {
    bytes = await deps.readFrame(request.objectKey);
  } catch (err) {
    if (err instanceof StorageNotFoundError) return frameFailed('The frame image is missing from storage.');
    throw err;
  }

  try {
    const image = await prepareImage(bytes, deps.limits);
    const plan = translationPlan(request);
    const response = await deps.annotate(image.content);
    const text = readVisionText(response.fullTextAnnotation, { scale: image.scale, grouping: plan ? 'paragraph' : 'line' });
    const detections = plan
      ? await withRetries(() => translateDetections(text.detections, plan, deps.translate), 'translation', deps.translateRetry).catch((err: unknown) => {
          const sorted = classifyGoogleError(err, 'translation');
          // Google refusing the language pair is the upload's problem, not one frame's.
          throw sorted.kind === 'invalid' ? new CloudApiError('engine', 'translation', REASONS.translationRefused(plan.target), sorted.message, sorted.status) : sorted;
        })
      : text.detections;
    return {
      kind: 'completed',
      result: { ...base, detections, words: text.words, imageWidth: image.width, imageHeight: image.height, durationMs: elapsed(), failureReason: null },
    };
  } catch (err) {
    if (err instanceof FrameUnreadableError) return frameFailed('The frame could not be read as an image.');
    if (!(err instanceof CloudApiError)) throw err;
    switch (err.kind) {
      case 'image':
      case 'invalid':
        return frameFailed(err.reason);
      case 'engine':
        return uploadFailed(err.reason);
      case 'rate-limited':
        if (attempt >= maxAttempts) return uploadFailed(REASONS.quota);
        throw err;
      case 'transient':
        if (attempt >= maxAttempts) return frameFailed(REASONS.unanswered);
        throw err;
    }
  }
}
