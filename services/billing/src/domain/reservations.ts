import { affordableFrames, creditCost, type ReserveCreditsRequest, type ReserveCreditsResponse } from '@frametext/contracts';
import { AppError, conflict, type Knex } from '@frametext/service-kit';
import { ensureAccount, lockAccount } from '../data/accounts.js';
import { isCancelledUpload } from '../data/cancelled-uploads.js';
import { findReservation, insertReservation, type Reservation } from '../data/reservations.js';
import type { BillingContext } from './context.js';
import { move } from './movements.js';

export const INSUFFICIENT_CREDITS_MESSAGE = 'Not enough credits, purchase some more before uploading.';

function answer(r: Reservation): ReserveCreditsResponse {
  return {
    uploadId: r.uploadId,
    framesRequested: r.framesRequested,
    maxFrames: r.framesAllowed,
    creditCost: r.creditsReserved,
    credits: r.balanceBefore,
    creditsRequired: r.creditsRequired,
  };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

/**
 * Holds the credits of the frames the user can pay for: all of them when the balance covers the cost,
 * otherwise the first floor(balance / rate) ("only the first X frames will be processed").
 * Idempotent by uploadId: a second call answers the first reservation and moves nothing. An upload that upload
 * has cancelled answers 409 and holds nothing.
 */
export async function reserveCredits(ctx: BillingContext, req: ReserveCreditsRequest): Promise<ReserveCreditsResponse> {
  try {
    return await ctx.db.transaction((trx) => reserveIn(trx, req));
  } catch (err) {
    // The same uploadId reserved at the same moment for another user: the second attempt sees the winner.
    if (isUniqueViolation(err)) return ctx.db.transaction((trx) => reserveIn(trx, req));
    throw err;
  }
}

async function reserveIn(trx: Knex.Transaction, req: ReserveCreditsRequest): Promise<ReserveCreditsResponse> {
  await ensureAccount(trx, req.userId);
  const account = await lockAccount(trx, req.userId);
  // Its owner deleted it (their token works for a few more seconds): nothing can be held any more.
  if (account.closedAt) throw new AppError(403, 'billing/account-closed', 'This account has been deleted.');

  // Upload cancelled this upload (its request timed out here, say) before the reservation got in: hold nothing.
  if (await isCancelledUpload(trx, req.uploadId)) throw conflict('billing/upload-cancelled', 'This upload was cancelled. Please start a new one.');
  const existing = await findReservation(trx, req.uploadId);
  if (existing) {
    if (existing.userId !== req.userId) throw conflict('billing/reservation-conflict', 'This upload id already holds credits for another user.');
    return answer(existing);
  }

  const creditsRequired = creditCost(req.frames, req.engine);
  if (account.balance <= 0) {
    throw new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE, { details: { credits: account.balance, creditsRequired } });
  }
  const framesAllowed = Math.min(req.frames, affordableFrames(account.balance, req.engine));
  const reservation: Reservation = {
    uploadId: req.uploadId,
    userId: req.userId,
    engine: req.engine,
    framesRequested: req.frames,
    framesAllowed,
    creditsRequired,
    creditsReserved: creditCost(framesAllowed, req.engine),
    balanceBefore: account.balance,
    status: 'held',
    settledBy: null,
    creditsCaptured: 0,
    creditsReleased: 0,
    createdAt: new Date(),
  };
  await insertReservation(trx, reservation);
  await move(trx, { userId: req.userId, kind: 'reserve', credits: reservation.creditsReserved, uploadId: req.uploadId });
  return answer(reservation);
}
