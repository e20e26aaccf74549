import { takeFromBucket, type BucketRate, type BucketTake, type Knex } from '@frametext/service-kit';

/**
 * Takes from a live token's shared budget (see `takeFromBucket`), on the database's clock and under the row's lock, so
 * every identity replica and every gateway counts one bucket. Undefined when the token is revoked or unknown.
 */
export async function takeFromApiTokenBudget(db: Knex, tokenId: string, rate: BucketRate, take: number, giveBack: number): Promise<BucketTake | undefined> {
  return db.transaction(async (trx) => {
    await trx.raw(
      `insert into api_token_budgets (token_id, tokens, refilled_at)
       select id, ?, now() from api_tokens where id = ? and revoked_at is null
       on conflict (token_id) do nothing`,
      [rate.capacity, tokenId],
    );
    const found = await trx.raw<{ rows: { tokens: number; at: string; now: string }[] }>(
      `select b.tokens, extract(epoch from b.refilled_at) * 1000 as at, extract(epoch from now()) * 1000 as now
       from api_token_budgets b join api_tokens t on t.id = b.token_id
       where b.token_id = ? and t.revoked_at is null
       for update of b`,
      [tokenId],
    );
    const row = found.rows[0];
    if (!row) return undefined;
    const taken = takeFromBucket({ tokens: Number(row.tokens), at: Number(row.at) }, Number(row.now), rate, take, giveBack);
    await trx.raw(`update api_token_budgets set tokens = ?, refilled_at = to_timestamp(? / 1000.0) where token_id = ?`, [taken.state.tokens, taken.state.at, tokenId]);
    return taken;
  });
}

/** Rows idle since `before`: full budgets, the same as none. */
export async function pruneIdleApiTokenBudgets(db: Knex, before: Date): Promise<number> {
  return db('api_token_budgets').where('refilled_at', '<', before).delete();
}
