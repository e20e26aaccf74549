import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

/**
 * Fixed-window counters shared by every replica. `add` is how much to count (0 only reads).
 * Answers the count in the current window after adding.
 */
export async function hitCounter(db: Db, bucket: string, windowSeconds: number, add: number): Promise<number> {
  const result = await db.raw<{ rows: { count: number }[] }>(
    `insert into rate_limit_counters (bucket, window_start, count)
     values (?, to_timestamp(floor(extract(epoch from now()) / ?) * ?), ?)
     on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
     returning count`,
    [bucket, windowSeconds, windowSeconds, add],
  );
  return result.rows[0]!.count;
}

export async function pruneCounters(db: Db, olderThan: Date): Promise<number> {
  return db('rate_limit_counters').where('window_start', '<', olderThan).delete();
}

export async function deleteCounters(db: Db, buckets: readonly string[]): Promise<number> {
  return db('rate_limit_counters').whereIn('bucket', [...buckets]).delete();
}
