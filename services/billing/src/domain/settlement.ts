import { creditsCaptured, type EventData } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import { ensureAccount, lockAccount } from '../data/accounts.js';
import { forgetCancelledUploadsBefore, recordCancelledUpload } from '../data/cancelled-uploads.js';
import { confirmReservation, findReservation, heldBefore, lockReservation, markSettled, type ReservationStatus, type SettledBy } from '../data/reservations.js';
import type { BillingContext } from './context.js';
import { move } from './movements.js';

/** What a settlement did: nothing when there was no reservation (the demo) or it was already settled. */
export type SettleResult = { outcome: 'settled'; captured: number; released: number } | { outcome: 'no-reservation' } | { outcome: 'already-settled' } | { outcome: 'skipped' };

interface SettleRequest {
  uploadId: string;
  settledBy: SettledBy;
  /**
   * Frames to charge for: those processed (settledBy processed), or read before the upload was deleted (settledBy
   * deleted). Their cost is captured, never more than was reserved; without it nothing is.
   */
  framesCharged?: number;
  /** Statuses the reservation may be in; any other leaves it as it is (the sweep settles only held ones). */
  from?: readonly ReservationStatus[];
}

/**
 * Ends a reservation in the caller's transaction: captures what the charged frames cost (at most the
 * reservation) and releases the rest, so capture + release always equals the reservation. A settled
 * reservation is never settled again, so replayed events move nothing.
 */
export async function settleReservation(trx: Knex.Transaction, req: SettleRequest): Promise<SettleResult> {
  const found = await findReservation(trx, req.uploadId);
  if (!found) return { outcome: 'no-reservation' };
  await lockAccount(trx, found.userId);
  const r = (await lockReservation(trx, req.uploadId))!;
  if (r.status === 'settled') return { outcome: 'already-settled' };
  if (req.from && !req.from.includes(r.status)) return { outcome: 'skipped' };

  const captured = creditsCaptured(req.framesCharged ?? 0, r.engine, r.creditsReserved);
  const released = r.creditsReserved - captured;
  await move(trx, { userId: r.userId, kind: 'capture', credits: captured, uploadId: r.uploadId });
  await move(trx, { userId: r.userId, kind: 'release', credits: released, uploadId: r.uploadId });
  await markSettled(trx, r.uploadId, req.settledBy, captured, released);
  return { outcome: 'settled', captured, released };
}

/** upload.completed.v1: the bytes arrived, so the reservation is no longer at risk of being swept. */
export async function confirmUpload(trx: Knex.Transaction, uploadId: string, log: Logger): Promise<void> {
  const found = await findReservation(trx, uploadId);
  if (!found) return;
  if (!(await confirmReservation(trx, uploadId))) log.warn({ uploadId, status: found.status, settledBy: found.settledBy }, 'upload completed for a reservation that is no longer held');
}

/**
 * upload.cancelled.v1: the upload will never reach the pipeline, so whatever it holds comes back. The account is
 * locked before anything else, as a reservation does, so a reservation still on its way (the cancel overtook it)
 * either committed first and is released here, or comes after and finds the upload cancelled and holds nothing.
 */
export async function cancelUpload(trx: Knex.Transaction, data: EventData<'upload.cancelled.v1'>, log: Logger): Promise<SettleResult> {
  await ensureAccount(trx, data.userId);
  await lockAccount(trx, data.userId);
  await recordCancelledUpload(trx, data);
  const found = await findReservation(trx, data.uploadId);
  // Upload completes or cancels an upload under one row lock, never both; a confirmed hold here is a bug upstream,
  // and the person gets their credits back rather than pay for an upload its own service gave up on.
  if (found?.status === 'confirmed') log.warn({ uploadId: data.uploadId }, 'cancelled upload had been confirmed; releasing its hold');
  return settleReservation(trx, { uploadId: data.uploadId, settledBy: 'cancelled' });
}

/**
 * upload.deleted.v1: the owner (or retention) deleted the upload. An upload deleted mid-processing is charged for the
 * frames read by then (`framesRead`, results' count at the delete, which also stopped the rest) and the rest of its
 * hold comes back; a processed upload's reservation is already settled, so it moves nothing.
 */
export function settleDeletedUpload(trx: Knex.Transaction, data: EventData<'upload.deleted.v1'>): Promise<SettleResult> {
  return settleReservation(trx, { uploadId: data.uploadId, settledBy: 'deleted', framesCharged: data.framesRead ?? 0 });
}

/** How long a cancelled upload id is remembered: far longer than a reservation request can be on its way. */
export const CANCELLED_UPLOAD_MEMORY_DAYS = 7;

/**
 * Releases every reservation still held (never confirmed by upload.completed.v1) that is older than
 * RESERVATION_TTL_HOURS at `now`: the user abandoned that upload (upload's own sweep cancels it sooner; this is the
 * backstop). Each in its own transaction. Also forgets cancelled upload ids older than CANCELLED_UPLOAD_MEMORY_DAYS.
 * Returns the upload ids released.
 */
export async function releaseAbandonedReservations(ctx: BillingContext, now: Date = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - ctx.config.RESERVATION_TTL_HOURS * 3_600_000);
  await forgetCancelledUploadsBefore(ctx.db, new Date(now.getTime() - CANCELLED_UPLOAD_MEMORY_DAYS * 86_400_000));
  const seen = new Set<string>();
  const released: string[] = [];
  for (;;) {
    const batch = (await heldBefore(ctx.db, cutoff, 100)).filter((id) => !seen.has(id));
    if (batch.length === 0) return released;
    for (const uploadId of batch) {
      seen.add(uploadId);
      const result = await ctx.db.transaction((trx) => settleReservation(trx, { uploadId, settledBy: 'abandoned', from: ['held'] }));
      if (result.outcome !== 'settled') continue;
      released.push(uploadId);
      ctx.logger.info({ uploadId, released: result.released }, 'abandoned reservation released');
    }
  }
}
