import type { Knex } from '@frametext/service-kit';
import { addToBalance } from '../data/accounts.js';
import { insertMovement, type Movement } from '../data/ledger.js';

/**
 * Writes one ledger movement and applies it to the balance row, in the caller's transaction, on an account
 * the caller has locked. A zero movement writes nothing. The balance check constraint makes an overspend
 * fail the whole transaction rather than go below zero.
 */
export async function move(trx: Knex.Transaction, movement: Movement): Promise<void> {
  if (movement.credits === 0) return;
  if (!Number.isInteger(movement.credits) || movement.credits < 0) throw new RangeError(`credits must be a whole number >= 0, got ${movement.credits}`);
  const delta = await insertMovement(trx, movement);
  if (delta !== 0) await addToBalance(trx, movement.userId, delta);
}
