import type { EventData } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import { lockAccount, rememberUser } from '../data/accounts.js';
import { hasMovement } from '../data/ledger.js';
import { move } from './movements.js';

/**
 * A new account: remember its e-mail and grant the free credits, once per user whatever the number of
 * user.created.v1 events (the inbox drops redeliveries; this check drops a re-published copy; a unique
 * index backs it). A closed account (deleted before this event arrived) gets neither.
 */
export async function welcomeUser(trx: Knex.Transaction, user: EventData<'user.created.v1'>, freeCredits: number, log: Logger): Promise<void> {
  await rememberUser(trx, user.uid, user.email, user.createdAt);
  const account = await lockAccount(trx, user.uid);
  if (account.closedAt) {
    // Deleted before this event got here (a retry, a replay): nothing to remember, nothing to grant.
    log.info({ userId: user.uid }, 'user.created.v1 for a closed account; ignored');
    return;
  }
  if (freeCredits === 0) return;
  if (await hasMovement(trx, user.uid, ['grant'])) {
    log.info({ userId: user.uid }, 'free credits already granted; nothing to do');
    return;
  }
  await move(trx, { userId: user.uid, kind: 'grant', credits: freeCredits, uploadId: null });
}
