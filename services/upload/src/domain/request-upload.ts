import { randomUUID } from 'node:crypto';
import { badRequest } from '@frametext/service-kit';
import {
  FRAME_MIME_TYPE,
  getUploadUrlRequestSchema,
  intervalFromFrameRate,
  isLinkUploadRequest,
  linkUploadRequestSchema,
  requestedFrames,
  youtubeVideoId,
  youtubeWatchUrl,
  type GetUploadUrlResponse,
  type UploadRequest,
} from '@frametext/contracts';
import type { Caller, UploadContext } from './context.js';
import { objectKeysFor } from './object-keys.js';
import { assertRequestFitsQuota, declaredBytes } from './storage-quota.js';
import { holdCredits } from './credit-hold.js';
import { parseUploadBody } from './validation.js';
import { startLinkUpload } from './video-link.js';

/** Content-Type each PUT must carry, in key order. */
function contentTypes(req: UploadRequest): string[] {
  switch (req.kind) {
    case 'video':
      return [req.mimeType];
    case 'photos':
      return req.files.map((f) => f.type);
    case 'frames':
      return req.timestamps.map(() => FRAME_MIME_TYPE);
  }
}

function fileNames(req: UploadRequest): string[] | null {
  switch (req.kind) {
    case 'video':
      return req.fileName ? [req.fileName] : null;
    case 'photos':
      return req.files.map((f) => f.name);
    case 'frames':
      return null;
  }
}

/**
 * POST /getUploadURL: validates the request, stores the upload, holds its credits at billing and answers one
 * presigned PUT URL per object, with the quote (only the first maxFrames frames are processed when the credits do
 * not cover them all).
 *
 * Credits always come back (a saga in three steps, the row first so that every later failure has something to
 * undo): validation comes before any side effect; the row is stored `reserving` before billing is asked; billing's
 * refusal (402) deletes it, leaving nothing behind; a failure once credits may be held (billing's answer lost, the
 * presigning failed) fails the row and publishes upload.cancelled.v1 in one transaction, so billing releases them;
 * and a process that dies between the steps leaves a `reserving` row that the unfinished-start sweep cancels the
 * same way within minutes (cancelUnfinishedStarts).
 */
export async function requestUpload(ctx: UploadContext, caller: Caller, body: unknown): Promise<GetUploadUrlResponse> {
  if (isLinkUploadRequest(body)) return requestLinkUpload(ctx, caller, body);
  const { userId } = caller;
  const req = parseUploadBody(getUploadUrlRequestSchema, body);
  const engine = await ctx.engines.check(req.ocrType);
  if (!engine.available) throw badRequest('upload/engine-unavailable', engine.reason ?? 'This engine is not available right now; choose Basic.');

  const declared = declaredBytes(req);
  await assertRequestFitsQuota(ctx, userId, declared);

  const uploadId = randomUUID();
  const framesRequested = requestedFrames(req);
  const objectKeys = objectKeysFor(uploadId, req);
  const expiresIn = ctx.config.UPLOAD_URL_EXPIRY_SECONDS;
  const { maxFrames, creditCost, prepared: urls } = await holdCredits(
    ctx,
    caller,
    {
      id: uploadId,
      userId,
      name: req.uploadName,
      kind: req.kind,
      engine: req.ocrType,
      mediaContent: req.mediaContent,
      intervalSeconds: req.kind === 'photos' ? null : (intervalFromFrameRate(req.targetFrameRate) ?? 1 / req.targetFrameRate),
      slideDetection: req.slideDetection,
      sortPreference: req.sortPreference,
      originalLanguage: req.originalLanguage,
      targetLanguage: req.targetLanguage,
      mimeType: req.mimeType,
      fileNames: fileNames(req),
      timestamps: req.timestamps,
      durationSeconds: req.kind === 'photos' ? null : (req.duration ?? null),
      framesRequested,
      objectKeys,
      declaredBytes: declared,
    },
    'uploading',
    () => {
      const types = contentTypes(req);
      return Promise.all(objectKeys.map((key, i) => ctx.storage.presignPut(key, { contentType: types[i], expiresIn })));
    },
  );
  ctx.logger.info({ uploadId, kind: req.kind, framesRequested, maxFrames }, 'upload requested');
  return {
    urls,
    uploadID: uploadId,
    framesRequested,
    maxFrames,
    creditCost,
    expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString(),
  };
}

/**
 * getUploadURL with a youtubeLink and no file: the server fetches the video (startLinkUpload). No URLs to PUT to;
 * the quote is for the most frames the link can yield (the hold), and the client follows the upload with
 * checkUploadStatus (status downloading, then as any upload).
 */
async function requestLinkUpload(ctx: UploadContext, caller: Caller, body: unknown): Promise<GetUploadUrlResponse> {
  const req = parseUploadBody(linkUploadRequestSchema, body);
  const started = await startLinkUpload(ctx, caller, {
    link: youtubeWatchUrl(youtubeVideoId(req.youtubeLink)!),
    extractor: 'youtube',
    uploadName: req.uploadName,
    engine: req.ocrType,
    mediaContent: req.mediaContent,
    interval: intervalFromFrameRate(req.targetFrameRate) ?? 1 / req.targetFrameRate,
    slideDetection: req.slideDetection,
    originalLanguage: req.originalLanguage,
    targetLanguage: req.targetLanguage,
  });
  return {
    urls: [],
    uploadID: started.uploadId,
    framesRequested: started.framesRequested,
    maxFrames: started.maxFrames,
    creditCost: started.creditCost,
    expiresAt: new Date(Date.now() + ctx.config.VIDEO_LINK_TIMEOUT_SECONDS * 1000).toISOString(),
  };
}
