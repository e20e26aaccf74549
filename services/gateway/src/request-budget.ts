import { RATE_LIMITED_CODE, type RequestBudgetRequest, type RequestBudgetResponse } from '@frametext/contracts';
import { AppError, perMinute, takeFromBucket, type BucketState, type Logger } from '@frametext/service-kit';
import { MAX_ENTRIES, dropOlderThan } from './bounded-maps.js';

/*
 * Each person's request budget: one for all their personal API tokens and browser sessions, shared by every gateway
 * replica. identity keeps the count (a token bucket in Postgres); a gateway leases a few requests at a time and spends
 * them with no call on the request's path, asking for the next few in the background before it runs out. What it
 * leased and did not spend within `leaseMs` goes back at its next lease. docs/security.md (Request budget) has the
 * reasoning and the bounds.
 */

/** identity's `/internal/request-budget`; throws when identity cannot answer. */
export type BudgetLease = (request: RequestBudgetRequest) => Promise<RequestBudgetResponse>;

export interface RequestBudgetOptions {
  /** Each person's budget: this many requests at once, refilled continuously over a minute. */
  requestsPerMinute: number;
  lease: BudgetLease;
  /** How long leased requests may be spent; after that they go back (this bounds the overshoot). */
  leaseMs: number;
  /** After identity failed to answer, how long each replica counts on its own before asking again. */
  retryIdentityMs: number;
  logger: Pick<Logger, 'warn'>;
  now?: () => number;
}

/** What this replica holds of one person's shared budget. */
interface Held {
  leased: number;
  /** When `leased` must no longer be spent (the moment its oldest part was asked for, plus leaseMs). */
  expiresAt: number;
  /** Leased and not spent in time: given back with the next lease. */
  giveBack: number;
  /** identity said the budget is spent until then: refused here without asking. */
  refusedUntil: number;
  prefetching: boolean;
  seenAt: number;
}

export class RequestBudget {
  /** This replica's own count of each person: the limit while identity cannot be asked (fail open to it). */
  private readonly local = new Map<string, BucketState>();
  private readonly held = new Map<string, Held>();
  private identityDownUntil = 0;
  /** Requests leased ahead of need: about a second of the budget's refill, at least one. */
  readonly reserve: number;
  private readonly now: () => number;

  constructor(private readonly opts: RequestBudgetOptions) {
    this.reserve = Math.max(1, Math.ceil(opts.requestsPerMinute / 60));
    this.now = opts.now ?? Date.now;
  }

  /** Spends one request of the person's budget; 429 (and `onRefused` with the wait in seconds) when it is spent. */
  async spend(userId: string, onRefused: (retryAfterSeconds: number) => void): Promise<void> {
    const shared = await this.spendShared(userId);
    if (shared !== 'granted' && shared !== 'unknown') this.refuse(shared.retryAfterMs, onRefused);
    // Never stricter than the shared count (this replica's requests are a part of it); alone while identity is away.
    const now = this.now();
    const taken = takeFromBucket(this.local.get(userId), now, perMinute(this.opts.requestsPerMinute), 1);
    if (!this.local.has(userId) && this.local.size >= MAX_ENTRIES) dropOlderThan(this.local, now - 60_000, (b) => b.at);
    this.local.set(userId, taken.state);
    if (taken.granted === 0) this.refuse(taken.retryAfterMs, onRefused);
  }

  private async spendShared(userId: string): Promise<'granted' | 'unknown' | { retryAfterMs: number }> {
    const now = this.now();
    const held = this.heldFor(userId, now);
    if (this.takeHeld(held, now)) {
      if (held.leased < this.reserve && !held.prefetching) this.prefetch(userId, held);
      return 'granted';
    }
    if (now < held.refusedUntil) return { retryAfterMs: held.refusedUntil - now };
    if (now < this.identityDownUntil) return 'unknown';
    const answered = await this.lease(userId, held, 1 + this.reserve);
    // Concurrent requests each asked; each takes from whatever all their answers brought.
    if (this.takeHeld(held, this.now())) return 'granted';
    if (!answered) return 'unknown';
    return { retryAfterMs: Math.max(1, held.refusedUntil - this.now()) };
  }

  private heldFor(userId: string, now: number): Held {
    let held = this.held.get(userId);
    if (!held) {
      if (this.held.size >= MAX_ENTRIES) dropOlderThan(this.held, now - 60_000, (h) => (h.prefetching ? now : h.seenAt));
      held = { leased: 0, expiresAt: 0, giveBack: 0, refusedUntil: 0, prefetching: false, seenAt: now };
      this.held.set(userId, held);
    }
    held.seenAt = now;
    return held;
  }

  private takeHeld(held: Held, now: number): boolean {
    expire(held, now);
    if (held.leased === 0) return false;
    held.leased -= 1;
    return true;
  }

  private prefetch(userId: string, held: Held): void {
    held.prefetching = true;
    void this.lease(userId, held, this.reserve).finally(() => (held.prefetching = false));
  }

  /** Asks identity for `take`; false when it could not answer (then every person counts locally for a while). */
  private async lease(userId: string, held: Held, take: number): Promise<boolean> {
    const askedAt = this.now();
    const giveBack = held.giveBack;
    held.giveBack = 0;
    let answer: RequestBudgetResponse;
    try {
      answer = await this.opts.lease({ userId, take, giveBack, requestsPerMinute: this.opts.requestsPerMinute });
    } catch (err) {
      // Whatever went wrong (down, slow, refusing this gateway), it is not the client's doing: fail open.
      if (askedAt >= this.identityDownUntil) {
        this.opts.logger.warn({ err }, 'identity cannot count requests: each gateway replica limits every person on its own until it can');
      }
      this.identityDownUntil = Math.max(this.identityDownUntil, this.now() + this.opts.retryIdentityMs);
      return false;
    }
    if (answer.granted > 0) {
      expire(held, this.now());
      if (held.leased === 0) held.expiresAt = askedAt + this.opts.leaseMs;
      held.leased += answer.granted;
    }
    if (answer.granted < take) held.refusedUntil = this.now() + answer.retryAfterMs;
    return true;
  }

  private refuse(retryAfterMs: number, onRefused: (retryAfterSeconds: number) => void): never {
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    onRefused(retryAfterSeconds);
    throw new AppError(429, RATE_LIMITED_CODE, rateLimitedMessage(this.opts.requestsPerMinute, retryAfterSeconds), { details: { retryAfterSeconds } });
  }
}

/** Leased requests past their time are not spent: they go back with the next lease. */
function expire(held: Held, now: number): void {
  if (held.leased > 0 && now >= held.expiresAt) {
    held.giveBack += held.leased;
    held.leased = 0;
  }
}

/** What a person past their budget reads: the limit, that tokens and sessions count together, and when to try again. */
export function rateLimitedMessage(requestsPerMinute: number, retryAfterSeconds: number): string {
  return `Your account made more than ${requestsPerMinute} requests in a minute (your API tokens and browser sessions count together). Try again in ${retryAfterSeconds} s.`;
}
