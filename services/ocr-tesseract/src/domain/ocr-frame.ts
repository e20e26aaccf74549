import type { EventData } from '@frametext/contracts';
import { StorageNotFoundError } from '@frametext/service-kit';
import { FrameUnreadableError } from './preprocess.js';
import type { FrameText } from './recognize.js';
import { TesseractError } from '../data/tesseract.js';

export type OcrRequest = EventData<'ocr.requested.v1'>;
export type OcrResult = EventData<'ocr.completed.v1'>;

export interface OcrFrameDeps {
  readFrame(objectKey: string): Promise<Buffer>;
  /**
   * Reads the image as the request's media content and original language ask (and with what it read of the upload
   * before). It is called as the frame arrives, with the image still being read from storage, so frames of an upload
   * take their turns in the order they arrived.
   */
  recognize(image: Promise<Buffer>, request: Pick<OcrRequest, 'uploadId' | 'mediaContent' | 'originalLanguage' | 'fromVideo'>): Promise<FrameText>;
}

/**
 * The delivery on which a frame whose Tesseract run timed out or failed is given up and completed with a
 * failure reason (the first failure is retried through the bus's delayed retry).
 */
export const FINAL_OCR_ATTEMPT = 2;

/**
 * Reads one frame and returns its ocr.completed.v1 body. A frame that cannot be read completes with a
 * failureReason and no detections, so the upload still finishes, and is not charged; a Tesseract timeout or failure
 * is retried once first. A frame whose reads used its CPU budget was read to its limit: it completes at once, with
 * no failureReason (it is charged) and without text, and `note` says why. Anything else (storage or broker trouble,
 * Tesseract missing) throws, and the bus retries it.
 */
export async function ocrFrame(request: OcrRequest, attempt: number, deps: OcrFrameDeps, maxAttempts = FINAL_OCR_ATTEMPT): Promise<OcrResult> {
  const started = performance.now();
  const base = { uploadId: request.uploadId, frameIndex: request.frameIndex, timestampMs: request.timestampMs, engine: request.engine };
  const failed = (failureReason: string): OcrResult => ({ ...base, detections: [], durationMs: Math.round(performance.now() - started), failureReason });

  const image = deps.readFrame(request.objectKey);
  // Its failure reaches the catch below through recognize, which may not be waiting for it yet.
  image.catch(() => undefined);
  try {
    const text = await deps.recognize(image, request);
    return {
      ...base,
      detections: text.detections,
      words: text.words,
      imageWidth: text.imageWidth,
      imageHeight: text.imageHeight,
      durationMs: Math.round(performance.now() - started),
      failureReason: null,
    };
  } catch (err) {
    if (err instanceof StorageNotFoundError) return failed('The frame image is missing from storage.');
    if (err instanceof FrameUnreadableError) return failed(`The frame could not be read as an image.`);
    if (err instanceof TesseractError && err.kind === 'budget') {
      return { ...base, detections: [], durationMs: Math.round(performance.now() - started), failureReason: null, note: `Text recognition stopped on this frame: ${err.message}.` };
    }
    if (err instanceof TesseractError && err.kind !== 'missing' && attempt >= Math.min(FINAL_OCR_ATTEMPT, maxAttempts)) {
      return failed(err.kind === 'timeout' ? 'Text recognition took too long on this frame and was stopped.' : 'Text recognition failed on this frame.');
    }
    throw err;
  }
}
