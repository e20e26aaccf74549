import { badRequest, notFound } from '@frametext/service-kit';
import { operationName, type UploadRequest } from '@frametext/contracts';
import { findUpload } from '../data/uploads-repo.js';
import { parseAnnotateRequest, type AnnotateOrder } from './annotate-request.js';
import { completeUpload } from './complete-upload.js';
import type { Caller, UploadContext } from './context.js';
import { deleteUnfinishedUploads } from './delete-unfinished.js';
import { movieMimeType, sniffMedia, SNIFF_BYTES } from './media-sniff.js';
import { movieDurationSeconds } from './movie-duration.js';
import { objectKeysFor } from './object-keys.js';
import { requestUpload } from './request-upload.js';
import { samplingInterval } from './sampling-interval.js';
import { checkLinkForm, startLinkUpload } from './video-link.js';

/*
 * POST /v1/videos:annotate: Google Video Intelligence's text detection, served by an ordinary upload.
 * A video sent inline goes the way a script's upload goes, in one call: getUploadURL's checks and credit hold
 * (requestUpload), the bytes stored where the PUT would have put them, then uploadComplete's checks and event
 * (completeUpload). The operation is the upload: its name ends in the upload id, and results answers it.
 * inputUri names an upload the caller already has: its operation is answered as it is, nothing is read again.
 */

function checkedVideo(bytes: Buffer): { mimeType: 'video/mp4' | 'video/quicktime'; durationSeconds: number } {
  if (sniffMedia(bytes.subarray(0, SNIFF_BYTES)) !== 'iso-bmff') throw badRequest('upload/invalid-media', 'inputContent is not a video: its content is not MP4 or MOV.');
  const durationSeconds = movieDurationSeconds(bytes);
  if (!durationSeconds) throw badRequest('upload/invalid-media', 'inputContent is not a video FrameText can read: it has no movie header (moov) with its length.');
  return { mimeType: movieMimeType(bytes), durationSeconds };
}

async function annotateInline(ctx: UploadContext, caller: Caller, video: Buffer, language: string | null): Promise<string> {
  const { mimeType, durationSeconds } = checkedVideo(video);
  const fileName = mimeType === 'video/quicktime' ? 'video.mov' : 'video.mp4';
  const started = await requestUpload(ctx, caller, {
    isVideo: true,
    mimeType,
    fileName,
    uploadName: `videos:annotate ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
    duration: durationSeconds,
    targetFrameRate: 1 / samplingInterval(durationSeconds),
    // Captions mode reads any text as it is; numerical would add the seven-segment reader.
    mediaContent: 'captions',
    ocrType: 'server',
    originalLanguage: language,
  });
  const uploadID = started.uploadID;
  const [key] = objectKeysFor(uploadID, { kind: 'video', fileName, mimeType } as UploadRequest);
  try {
    await ctx.storage.put(key!, video, { contentType: mimeType, size: video.length });
  } catch (err) {
    // Not completed: cancelled at once, so its credits come back now rather than at the abandoned-upload sweep.
    await deleteUnfinishedUploads(ctx, caller.userId, [uploadID]).catch((cancelErr: unknown) => ctx.logger.warn({ err: cancelErr, uploadId: uploadID }, 'could not cancel an inline video whose bytes were not stored'));
    throw err;
  }
  await completeUpload(ctx, caller.userId, { uploadID });
  return uploadID;
}

async function existingUpload(ctx: UploadContext, userId: string, uploadId: string): Promise<string> {
  const upload = await findUpload(ctx.db, userId, uploadId);
  if (!upload || upload.kind === 'local' || upload.deletedAt) throw notFound('upload/not-found', 'No such upload.');
  if (upload.kind !== 'video') throw badRequest('annotate/not-a-video', 'This upload is photos, not a video: text detection over time reads videos.');
  return upload.id;
}

/** A video by its address: fetched by the server (startLinkUpload), read as an inline video is, at an interval chosen from its length. */
async function annotateLink(ctx: UploadContext, caller: Caller, url: string, language: string | null): Promise<string> {
  checkLinkForm(ctx, url, 'annotate/invalid-input-uri');
  const started = await startLinkUpload(ctx, caller, {
    link: url,
    extractor: 'any',
    uploadName: `videos:annotate ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
    engine: 'server',
    mediaContent: 'captions',
    interval: 'auto',
    slideDetection: false,
    originalLanguage: language,
    targetLanguage: null,
  });
  return started.uploadId;
}

async function uploadOf(ctx: UploadContext, caller: Caller, order: AnnotateOrder): Promise<string> {
  switch (order.source.kind) {
    case 'upload':
      return existingUpload(ctx, caller.userId, order.source.uploadId);
    case 'inline':
      return annotateInline(ctx, caller, order.source.video, order.language);
    case 'link':
      return annotateLink(ctx, caller, order.source.url, order.language);
  }
}

export async function annotateVideo(ctx: UploadContext, caller: Caller, body: unknown): Promise<{ name: string }> {
  const order: AnnotateOrder = parseAnnotateRequest(body);
  const uploadId = await uploadOf(ctx, caller, order);
  ctx.logger.info({ uploadId, source: order.source.kind }, 'video annotation started');
  return { name: operationName(uploadId) };
}
