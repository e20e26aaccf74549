/*
 * A token bucket: `capacity` requests at once, refilled continuously at `perMs` a millisecond. One way to count it,
 * whether the bucket lives in a process (the gateway's own, per replica) or in a Postgres row (identity's, shared).
 */

export interface BucketRate {
  capacity: number;
  /** Refill a millisecond. */
  perMs: number;
}

/** What a bucket holds, as of `at` (ms on whatever clock the caller uses throughout). */
export interface BucketState {
  tokens: number;
  at: number;
}

export interface BucketTake {
  state: BucketState;
  /** How many of those asked for were taken (0 up to `take`). */
  granted: number;
  /** How long until the bucket holds one whole request again (0 when it does now). */
  retryAfterMs: number;
}

/** `requestsPerMinute` at once, refilled over a minute. */
export function perMinute(requestsPerMinute: number): BucketRate {
  return { capacity: requestsPerMinute, perMs: requestsPerMinute / 60_000 };
}

/**
 * Refills the bucket up to `now`, puts back `giveBack` requests taken earlier but not spent, and takes up to `take`
 * whole requests. A bucket never seen (`state` undefined) is full.
 */
export function takeFromBucket(state: BucketState | undefined, now: number, rate: BucketRate, take: number, giveBack = 0): BucketTake {
  const before = state ?? { tokens: rate.capacity, at: now };
  const elapsed = Math.max(0, now - before.at);
  const available = Math.min(rate.capacity, before.tokens + elapsed * rate.perMs + Math.max(0, giveBack));
  // A hair of float error must not cost a request (0.1 + 0.2 ...).
  const granted = Math.max(0, Math.min(take, Math.floor(available + 1e-9)));
  const tokens = Math.max(0, available - granted);
  const retryAfterMs = tokens >= 1 - 1e-9 ? 0 : Math.ceil((1 - tokens) / rate.perMs);
  return { state: { tokens, at: Math.max(now, before.at) }, granted, retryAfterMs };
}
