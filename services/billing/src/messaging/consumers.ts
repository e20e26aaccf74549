import type { EventType } from '@frametext/contracts';
import { on, type Consumer } from '@frametext/service-kit';
import { closeAccount } from '../domain/account-closing.js';
import type { BillingContext } from '../domain/context.js';
import { grantFreeCredits, welcomeUser } from '../domain/grants.js';
import { cancelUpload, confirmUpload, settleDeletedUpload, settleReservation } from '../domain/settlement.js';

export const CONSUMED_EVENTS: EventType[] = [
  'user.created.v1',
  'user.email-confirmed.v1',
  'user.deleted.v1',
  'upload.completed.v1',
  'upload.processed.v1',
  'upload.failed.v1',
  'upload.cancelled.v1',
  'upload.deleted.v1',
];

/** Each handler runs in the inbox transaction, so an event's movements commit once or not at all. */
export function billingConsumers(ctx: BillingContext): Consumer[] {
  return [
    on('user.created.v1', async ({ data }, { trx }) => {
      await welcomeUser(trx, data);
    }),
    // The free credits come with a proven e-mail address, not with the sign-up.
    on('user.email-confirmed.v1', async ({ data }, { trx, log }) => {
      await grantFreeCredits(trx, data, ctx.config.FREE_CREDITS, log);
    }),
    on('user.deleted.v1', async ({ data }, { trx, log }) => {
      await closeAccount(trx, data, log);
    }),
    on('upload.completed.v1', async ({ data }, { trx, log }) => {
      await confirmUpload(trx, data.uploadId, log);
    }),
    on('upload.processed.v1', async ({ data }, { trx, log }) => {
      const result = await settleReservation(trx, { uploadId: data.uploadId, settledBy: 'processed', framesCharged: data.framesProcessed });
      log.info({ uploadId: data.uploadId, ...result }, 'processed upload settled');
    }),
    on('upload.failed.v1', async ({ data }, { trx, log }) => {
      const result = await settleReservation(trx, { uploadId: data.uploadId, settledBy: 'failed' });
      log.info({ uploadId: data.uploadId, stage: data.stage, ...result }, 'failed upload settled');
    }),
    on('upload.cancelled.v1', async ({ data }, { trx, log }) => {
      const result = await cancelUpload(trx, data, log);
      log.info({ uploadId: data.uploadId, reason: data.reason, ...result }, 'cancelled upload settled');
    }),
    on('upload.deleted.v1', async ({ data }, { trx, log }) => {
      const result = await settleDeletedUpload(trx, data);
      log.info({ uploadId: data.uploadId, framesRead: data.framesRead, ...result }, 'deleted upload settled');
    }),
  ];
}
