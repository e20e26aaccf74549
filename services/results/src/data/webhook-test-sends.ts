import type { Knex } from '@frametext/service-kit';

/** The cap counts the test events of the last minute (WEBHOOK_TEST_EVENTS_PER_MINUTE). */
const WINDOW = `interval '60 seconds'`;

export interface RecentTestSends {
  count: number;
  /** Seconds until the oldest of them leaves the window (0 when there are none). */
  secondsUntilOneLeaves: number;
}

/** The person's test events within the last minute, by the database's clock (the same for every replica). */
export async function recentTestSends(trx: Knex.Transaction, userId: string): Promise<RecentTestSends> {
  const result = await trx.raw<{ rows: { count: number; wait: number | null }[] }>(
    `select count(*)::int as count, ceil(extract(epoch from min(sent_at) + ${WINDOW} - now()))::int as wait
       from webhook_test_sends where user_id = ? and sent_at > now() - ${WINDOW}`,
    [userId],
  );
  const row = result.rows[0]!;
  return { count: row.count, secondsUntilOneLeaves: Math.max(0, row.wait ?? 0) };
}

/** Records one test event of the person, and forgets theirs that have left the window. */
export async function recordTestSend(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('webhook_test_sends').where({ user_id: userId }).where('sent_at', '<=', trx.raw(`now() - ${WINDOW}`)).delete();
  await trx('webhook_test_sends').insert({ user_id: userId });
}

/** Account deletion: the person's test events go with their webhooks. */
export async function forgetTestSendsOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('webhook_test_sends').where({ user_id: userId }).delete();
}

/** Retention: test events of people who have not sent one since; they no longer count. */
export async function deleteTestSendsOutsideWindow(db: Knex): Promise<number> {
  return db('webhook_test_sends').where('sent_at', '<=', db.raw(`now() - ${WINDOW}`)).delete();
}
