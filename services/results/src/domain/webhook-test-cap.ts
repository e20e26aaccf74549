import { AppError, type Knex } from '@frametext/service-kit';
import { recentTestSends, recordTestSend } from '../data/webhook-test-sends.js';
import type { ResultsContext } from './context.js';

/**
 * Counts one test event of the person against WEBHOOK_TEST_EVENTS_PER_MINUTE, over all their webhooks. Past it,
 * 429 `webhooks/test-rate-limited` saying how long to wait, with `onRefused` told the wait in seconds (Retry-After).
 * Call it in the transaction that holds the person's webhook lock, so two requests at once cannot both pass.
 */
export async function spendTestEvent(ctx: ResultsContext, trx: Knex.Transaction, userId: string, onRefused: (retryAfterSeconds: number) => void): Promise<void> {
  const limit = ctx.config.WEBHOOK_TEST_EVENTS_PER_MINUTE;
  const recent = await recentTestSends(trx, userId);
  if (recent.count >= limit) {
    const retryAfterSeconds = Math.max(1, recent.secondsUntilOneLeaves);
    onRefused(retryAfterSeconds);
    throw new AppError(429, 'webhooks/test-rate-limited', `You can send at most ${limit} test events a minute. Wait ${retryAfterSeconds} s and try again.`, {
      details: { retryAfterSeconds },
    });
  }
  await recordTestSend(trx, userId);
}
