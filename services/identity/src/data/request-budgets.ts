import { takeFromBucket, type BucketRate, type BucketTake, type Knex } from '@frametext/service-kit';

/**
 * Takes from a person's shared request budget (see `takeFromBucket`), on the database's clock and under the row's
 * lock, so every identity replica and every gateway counts one bucket for all the person's tokens and sessions.
 */
export async function takeFromRequestBudget(db: Knex, userId: string, rate: BucketRate, take: number, giveBack: number): Promise<BucketTake> {
  return db.transaction(async (trx) => {
    await trx.raw(`insert into request_budgets (user_id, tokens, refilled_at) values (?, ?, now()) on conflict (user_id) do nothing`, [userId, rate.capacity]);
    const found = await trx.raw<{ rows: { tokens: number; at: string; now: string }[] }>(
      `select tokens, extract(epoch from refilled_at) * 1000 as at, extract(epoch from now()) * 1000 as now
       from request_budgets where user_id = ? for update`,
      [userId],
    );
    const row = found.rows[0]!;
    const taken = takeFromBucket({ tokens: Number(row.tokens), at: Number(row.at) }, Number(row.now), rate, take, giveBack);
    await trx.raw(`update request_budgets set tokens = ?, refilled_at = to_timestamp(? / 1000.0) where user_id = ?`, [taken.state.tokens, taken.state.at, userId]);
    return taken;
  });
}

/** Rows idle since `before`: full budgets, the same as none. */
export async function pruneIdleRequestBudgets(db: Knex, before: Date): Promise<number> {
  return db('request_budgets').where('refilled_at', '<', before).delete();
}
