import { randomUUID } from 'node:crypto';
import { AppError, badRequest } from '@frametext/service-kit';
import {
  FRAME_MIME_TYPE,
  getUploadUrlRequestSchema,
  intervalFromFrameRate,
  requestedFrames,
  type GetUploadUrlResponse,
  type UploadRequest,
} from '@frametext/contracts';
import { INSUFFICIENT_CREDITS_MESSAGE } from '../data/billing-client.js';
import { insertUpload } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { objectKeysFor } from './object-keys.js';
import { parseUploadBody } from './validation.js';

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
 * POST /getUploadURL: validates the request, holds its credits at billing, stores the upload (status
 * uploading) and answers one presigned PUT URL per object, with the quote (only the first maxFrames frames
 * are processed when the credits do not cover them all).
 */
export async function requestUpload(ctx: UploadContext, userId: string, body: unknown): Promise<GetUploadUrlResponse> {
  const req = parseUploadBody(getUploadUrlRequestSchema, body);
  if (req.ocrType === 'cloud' && !ctx.config.CLOUD_OCR_ENABLED) {
    throw badRequest('upload/engine-unavailable', 'The Cloud AI engine is not available yet. Choose Basic (ocrType "server") to read text on our servers.');
  }

  const uploadId = randomUUID();
  const framesRequested = requestedFrames(req);
  const quote = await ctx.billing.reserve({ uploadId, userId, engine: req.ocrType, frames: framesRequested });
  if (quote.maxFrames < 1) throw new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE);

  const objectKeys = objectKeysFor(uploadId, req);
  // Billing's sweep releases the hold if this insert never happens (the reservation is never confirmed).
  await insertUpload(ctx.db, {
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
    framesAllowed: Math.min(quote.maxFrames, framesRequested),
    creditCost: quote.creditCost,
    objectKeys,
  });

  const expiresIn = ctx.config.UPLOAD_URL_EXPIRY_SECONDS;
  const types = contentTypes(req);
  const urls = await Promise.all(objectKeys.map((key, i) => ctx.storage.presignPut(key, { contentType: types[i], expiresIn })));
  ctx.logger.info({ uploadId, kind: req.kind, framesRequested, maxFrames: quote.maxFrames }, 'upload requested');
  return {
    urls,
    uploadID: uploadId,
    framesRequested,
    maxFrames: Math.min(quote.maxFrames, framesRequested),
    creditCost: quote.creditCost,
    expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString(),
  };
}
