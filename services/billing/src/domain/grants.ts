import type { EventData } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import { ensureAccount, lockAccount, rememberUser } from '../data/accounts.js';
import { hasMovement } from '../data/ledger.js';
import { move } from './movements.js';

/**
 * A new account (user.created.v1): remember its e-mail. No credits yet: they wait for the address to be proven
 * (grantFreeCredits). A closed account (deleted before this event arrived) keeps no e-mail (rememberUser).
 */
export async function welcomeUser(trx: Knex.Transaction, user: EventData<'user.created.v1'>): Promise<void> {
  await rememberUser(trx, user.uid, user.email, user.createdAt);
}

/**
 * The account's e-mail address is proven (user.email-confirmed.v1): grant the free credits, once per user whatever
 * the number of events (the inbox drops redeliveries; this check drops a re-published copy; a unique index backs
 * it). It may arrive before user.created.v1: the account row is made here if needed. A closed account gets nothing.
 */
export async function grantFreeCredits(trx: Knex.Transaction, confirmed: EventData<'user.email-confirmed.v1'>, freeCredits: number, log: Logger): Promise<void> {
  await ensureAccount(trx, confirmed.uid);
  const account = await lockAccount(trx, confirmed.uid);
  if (account.closedAt) {
    log.info({ userId: confirmed.uid }, 'user.email-confirmed.v1 for a closed account; ignored');
    return;
  }
  if (freeCredits === 0) return;
  if (await hasMovement(trx, confirmed.uid, ['grant'])) {
    log.info({ userId: confirmed.uid }, 'free credits already granted; nothing to do');
    return;
  }
  await move(trx, { userId: confirmed.uid, kind: 'grant', credits: freeCredits, uploadId: null });
}
