import { creditCost, type ChargeLocalUseRequest, type ChargeLocalUseResponse } from '@frametext/contracts';
import { AppError, type Knex } from '@frametext/service-kit';
import { ensureAccount, lockAccount } from '../data/accounts.js';
import { findLocalUse } from '../data/ledger.js';
import type { BillingContext } from './context.js';
import { move } from './movements.js';

/** The spec's words when a cost exceeds the balance. */
export const localShortfallMessage = (credits: number, required: number) => `You have ${credits} credits but this operation requires ${required}.`;

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

/**
 * Charges a Local engine run: one `local_use` movement of ceil(frames x the local rate) credits, once per user and
 * upload id. The account lock orders concurrent calls; a repeat (the browser saving again, upload retrying after a
 * lost answer) finds the movement and answers it without moving anything, and the unique index
 * ledger_one_local_use_per_upload backs that up. A balance below the cost answers 402 and moves nothing: unlike a
 * server upload, a local run has already happened, so there are no "first X frames" to hold.
 */
export async function chargeLocalUse(ctx: BillingContext, req: ChargeLocalUseRequest): Promise<ChargeLocalUseResponse> {
  try {
    return await ctx.db.transaction((trx) => chargeIn(trx, req));
  } catch (err) {
    if (isUniqueViolation(err)) return ctx.db.transaction((trx) => chargeIn(trx, req));
    throw err;
  }
}

async function chargeIn(trx: Knex.Transaction, req: ChargeLocalUseRequest): Promise<ChargeLocalUseResponse> {
  await ensureAccount(trx, req.userId);
  const account = await lockAccount(trx, req.userId);
  const existing = await findLocalUse(trx, req.userId, req.uploadId);
  if (existing) return { uploadId: req.uploadId, creditCost: existing.credits, credits: account.balance, charged: false };

  const cost = creditCost(req.frames, 'local');
  if (account.balance < cost) {
    throw new AppError(402, 'billing/insufficient-credits', localShortfallMessage(account.balance, cost), { details: { credits: account.balance, creditsRequired: cost } });
  }
  await move(trx, { userId: req.userId, kind: 'local_use', credits: cost, uploadId: req.uploadId });
  return { uploadId: req.uploadId, creditCost: cost, credits: account.balance - cost, charged: true };
}
