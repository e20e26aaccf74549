import { DEFAULT_FRAME_INTERVAL, formatBytes, type EventData } from '@frametext/contracts';
import { StorageNotFoundError, UploadCancelledError } from '@frametext/service-kit';
import { NoScratchRoomError } from '../data/source-file.js';
import type { ExtractionContext } from './context.js';
import { FrameSink, type FrameReady } from './frame-sink.js';
import { extractBrowserFrames, extractPhotoFrames } from './images.js';
import { MediaError } from './media-error.js';
import type { StoredFrame } from './stored-frame.js';
import { extractVideoFrames } from './video.js';

export type ExtractionOutcome =
  | { ok: true; frames: StoredFrame[]; durationSeconds: number | null }
  | { ok: false; reason: string }
  /** The upload was deleted: its work stopped, and nothing more is said of it. */
  | { ok: false; deleted: true; framesStored: number };

/**
 * Cuts, orders or checks an upload's frames and stores them, handing each to `ready` as soon as it is stored and its
 * place is final (its OCR need not wait for the rest). The media's own faults come back as a failed
 * outcome with a reason a person can read; infrastructure errors (storage down) are thrown, so the message is
 * retried. Object keys depend only on the upload, so running it again overwrites the same objects. An upload deleted
 * before or during the work stops before its next frame (the deleted outcome).
 */
export async function extractUpload(ctx: ExtractionContext, upload: EventData<'upload.completed.v1'>, ready: FrameReady): Promise<ExtractionOutcome> {
  const sink = new FrameSink(ready);
  try {
    await ctx.stopIfDeleted();
    if (upload.kind === 'video') {
      const slideDetection = upload.mediaContent === 'presentation' && upload.slideDetection;
      const durationSeconds = await extractVideoFrames(ctx, {
        uploadId: upload.uploadId,
        sourceKey: upload.objectKeys[0]!,
        intervalSeconds: upload.intervalSeconds ?? DEFAULT_FRAME_INTERVAL,
        slideDetection,
        maxFrames: upload.maxFrames,
        clientDurationSeconds: upload.durationSeconds,
      }, sink);
      return { ok: true, frames: sink.frames, durationSeconds };
    }
    const request = {
      uploadId: upload.uploadId,
      objectKeys: upload.objectKeys,
      fileNames: upload.fileNames,
      timestamps: upload.timestamps,
      sortPreference: upload.sortPreference,
      maxFrames: upload.maxFrames,
    };
    await (upload.kind === 'photos' ? extractPhotoFrames(ctx, request, sink) : extractBrowserFrames(ctx, request, sink));
    return { ok: true, frames: sink.frames, durationSeconds: null };
  } catch (err) {
    if (err instanceof UploadCancelledError) return { ok: false, deleted: true, framesStored: sink.frames.length };
    if (err instanceof MediaError) {
      ctx.log.info({ uploadId: upload.uploadId, reason: err.reason }, 'upload media refused');
      return { ok: false, reason: err.reason };
    }
    if (err instanceof NoScratchRoomError) {
      ctx.log.error({ uploadId: upload.uploadId, sourceBytes: err.sourceBytes, freeBytes: err.freeBytes }, 'no room in WORK_DIR for the source video: size it for BUS_PREFETCH of the largest uploads');
      return { ok: false, reason: `The video (${formatBytes(err.sourceBytes)}) could not be processed: the server had only ${formatBytes(err.freeBytes)} of working space free for it. Please try again later.` };
    }
    if (err instanceof StorageNotFoundError) {
      // upload checked the objects before publishing; one gone since then was deleted, and will not come back.
      return { ok: false, reason: 'The uploaded file is no longer in storage; it may have been deleted. Please upload it again.' };
    }
    throw err;
  }
}
