import { randomUUID } from 'node:crypto';
import { AppError, badRequest, enqueueEvent, errorText, unavailable } from '@frametext/service-kit';
import {
  FRAME_MIME_TYPE,
  getUploadUrlRequestSchema,
  intervalFromFrameRate,
  requestedFrames,
  type GetUploadUrlResponse,
  type UploadRequest,
} from '@frametext/contracts';
import { INSUFFICIENT_CREDITS_MESSAGE } from '../data/billing-client.js';
import { deleteReservingUpload, failUploadIn, openReservedUpload } from '../data/uploads-repo.js';
import { insertUploadOfLiveAccount } from './account-deletion.js';
import type { Caller, UploadContext } from './context.js';
import { START_FAILED } from './unfinished-starts.js';
import { objectKeysFor } from './object-keys.js';
import { assertRequestFitsQuota, declaredBytes } from './storage-quota.js';
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
  const { userId } = caller;
  const req = parseUploadBody(getUploadUrlRequestSchema, body);
  const engine = await ctx.engines.check(req.ocrType);
  if (!engine.available) throw badRequest('upload/engine-unavailable', engine.reason ?? 'This engine is not available right now; choose Basic.');

  const declared = declaredBytes(req);
  await assertRequestFitsQuota(ctx, userId, declared);

  const uploadId = randomUUID();
  const framesRequested = requestedFrames(req);
  const objectKeys = objectKeysFor(uploadId, req);
  await insertUploadOfLiveAccount(ctx, {
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
    // Nothing is paid for until billing answers.
    framesAllowed: 0,
    creditCost: 0,
    objectKeys,
    status: 'reserving',
    declaredBytes: declared,
  });

  const hold = await ctx.billing.reserve({ uploadId, userId, engine: req.ocrType, frames: framesRequested }, caller.accessToken);
  if (hold.outcome === 'refused') {
    await deleteReservingUpload(ctx.db, userId, uploadId);
    throw hold.error;
  }
  if (hold.outcome === 'unknown') {
    await cancelStart(ctx, userId, uploadId, 'billing gave no answer to rely on');
    throw hold.error;
  }

  const quote = hold.quote;
  const maxFrames = Math.min(quote.maxFrames, framesRequested);
  try {
    // Billing answers 402 rather than a hold of no frames; should it ever hold none, the hold goes back all the same.
    if (maxFrames < 1) throw new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE);
    const expiresIn = ctx.config.UPLOAD_URL_EXPIRY_SECONDS;
    const types = contentTypes(req);
    const urls = await Promise.all(objectKeys.map((key, i) => ctx.storage.presignPut(key, { contentType: types[i], expiresIn })));
    if (!(await openReservedUpload(ctx.db, userId, uploadId, { framesAllowed: maxFrames, creditCost: quote.creditCost }))) {
      // This took longer than UNFINISHED_START_AFTER_SECONDS and the sweep has cancelled it: its credits are on their way back.
      throw unavailable('upload/start-failed', 'The upload could not be started in time. Please try again.');
    }
    ctx.logger.info({ uploadId, kind: req.kind, framesRequested, maxFrames }, 'upload requested');
    return {
      urls,
      uploadID: uploadId,
      framesRequested,
      maxFrames,
      creditCost: quote.creditCost,
      expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString(),
    };
  } catch (err) {
    // If this fails too (the database is down), the row stays `reserving` and the sweep cancels it.
    await cancelStart(ctx, userId, uploadId, errorText(err)).catch((cancelErr: unknown) => {
      ctx.logger.error({ err: cancelErr, uploadId }, 'could not cancel a failed start; the unfinished-start sweep will');
    });
    throw err;
  }
}

/** Fails a start that may hold credits and publishes upload.cancelled.v1, in one transaction; nothing if it is no longer reserving. */
async function cancelStart(ctx: UploadContext, userId: string, uploadId: string, why: string): Promise<void> {
  const cancelled = await ctx.db.transaction(async (trx) => {
    if (!(await failUploadIn(trx, 'reserving', userId, uploadId, START_FAILED))) return false;
    await enqueueEvent(trx, 'upload.cancelled.v1', { uploadId, userId, reason: 'start-failed' });
    return true;
  });
  if (cancelled) ctx.logger.warn({ uploadId, why }, 'upload start failed after asking billing; cancelled so that billing releases the hold');
}
