import type { Knex } from '@frametext/service-kit';
import { addToBalance } from '../data/accounts.js';
import { insertMovement, type Movement } from '../data/ledger.js';

/**
 * Writes one ledger movement and applies it to the balance row, in the caller's transaction, on an account
 * the caller has locked. A zero movement writes nothing. The balance check constraint makes an overspend
 * fail the whole transaction rather than go below zero. Credits that reach a closed account (a hold released after
 * its owner deleted it) are forfeited in the same transaction: a closed account never holds anything.
 * Answers the credits forfeited that way (0 almost always).
 */
export async function move(trx: Knex.Transaction, movement: Movement): Promise<number> {
  if (movement.credits === 0) return 0;
  if (!Number.isInteger(movement.credits) || movement.credits < 0) throw new RangeError(`credits must be a whole number >= 0, got ${movement.credits}`);
  const delta = await insertMovement(trx, movement);
  if (delta === 0) return 0;
  const { closed } = await addToBalance(trx, movement.userId, delta);
  if (!closed || delta < 0) return 0;
  await insertMovement(trx, { userId: movement.userId, kind: 'forfeit', credits: delta, uploadId: movement.uploadId, checkoutSessionId: movement.checkoutSessionId });
  await addToBalance(trx, movement.userId, -delta);
  return delta;
}
