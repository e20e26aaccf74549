import type { EventData } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import { ensureAccount, lockAccount, markClosed } from '../data/accounts.js';
import { move } from './movements.js';

/** What closing did: the credits forfeited now, and whether the account was open until then. */
export interface ClosingResult {
  closed: boolean;
  forfeited: number;
}

/**
 * user.deleted.v1: the person deleted their account. Billing erases the e-mail it kept and closes the account; the
 * ledger and reservations stay (the books must still balance) and name nobody but the uid. The spendable balance is
 * forfeited (a `forfeit` movement), as the person was told. Credits still held for uploads stay held until those
 * uploads' own events settle them (results deletes every upload and publishes upload.deleted.v1; upload cancels the open
 * ones): what they release then is forfeited as it arrives (see `move`). A person billing never heard of gets a closed
 * row all the same, so a user.created.v1 arriving late stores no e-mail and grants nothing. A re-published event finds
 * the account closed with nothing to forfeit.
 */
export async function closeAccount(trx: Knex.Transaction, data: EventData<'user.deleted.v1'>, log: Logger): Promise<ClosingResult> {
  await ensureAccount(trx, data.uid);
  const account = await lockAccount(trx, data.uid);
  const closed = await markClosed(trx, data.uid);
  if (account.balance > 0) await move(trx, { userId: data.uid, kind: 'forfeit', credits: account.balance, uploadId: null });
  log.info({ userId: data.uid, closed, forfeited: account.balance }, closed ? 'account closed: e-mail erased, balance forfeited' : 'account already closed');
  return { closed, forfeited: account.balance };
}
