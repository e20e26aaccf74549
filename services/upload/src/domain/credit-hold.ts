import { AppError, enqueueEvent, errorText, unavailable } from '@frametext/service-kit';
import type { ServerEngine } from '@frametext/contracts';
import { INSUFFICIENT_CREDITS_MESSAGE } from '../data/billing-client.js';
import { deleteReservingUpload, failUploadIn, openReservedUpload, type NewUpload } from '../data/uploads-repo.js';
import { insertUploadOfLiveAccount } from './account-deletion.js';
import type { Caller, UploadContext } from './context.js';
import { START_FAILED } from './unfinished-starts.js';

/** An upload to store and hold credits for: everything but what billing's answer and the steps after set. */
export type UploadToHold = Omit<NewUpload, 'status' | 'framesAllowed' | 'creditCost'>;

/**
 * The credit saga of a start (getUploadURL, a video by link): stores the row `reserving`, asks billing to hold the
 * frames' credits, runs `prepare` (presigning the URLs; nothing for a link), then opens the row as `openAs` with
 * billing's quote. Every failure after billing was asked undoes the hold (cancelStart); billing's refusal leaves no
 * trace. Answers the frames paid for, their credits and what `prepare` made.
 */
export async function holdCredits<T>(
  ctx: UploadContext,
  caller: Caller,
  upload: UploadToHold,
  openAs: 'uploading' | 'downloading',
  prepare: () => Promise<T>,
): Promise<{ maxFrames: number; creditCost: number; prepared: T }> {
  const { userId } = caller;
  const uploadId = upload.id;
  // Nothing is paid for until billing answers.
  await insertUploadOfLiveAccount(ctx, { ...upload, framesAllowed: 0, creditCost: 0, status: 'reserving' });

  const hold = await ctx.billing.reserve({ uploadId, userId, engine: upload.engine as ServerEngine, frames: upload.framesRequested }, caller.accessToken);
  if (hold.outcome === 'refused') {
    await deleteReservingUpload(ctx.db, userId, uploadId);
    throw hold.error;
  }
  if (hold.outcome === 'unknown') {
    await cancelStart(ctx, userId, uploadId, 'billing gave no answer to rely on');
    throw hold.error;
  }

  const quote = hold.quote;
  const maxFrames = Math.min(quote.maxFrames, upload.framesRequested);
  try {
    // Billing answers 402 rather than a hold of no frames; should it ever hold none, the hold goes back all the same.
    if (maxFrames < 1) throw new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE);
    const prepared = await prepare();
    if (!(await openReservedUpload(ctx.db, userId, uploadId, { framesAllowed: maxFrames, creditCost: quote.creditCost }, openAs))) {
      // This took longer than UNFINISHED_START_AFTER_SECONDS and the sweep has cancelled it: its credits are on their way back.
      throw unavailable('upload/start-failed', 'The upload could not be started in time. Please try again.');
    }
    return { maxFrames, creditCost: quote.creditCost, prepared };
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
