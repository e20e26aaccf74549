import { createHash } from 'node:crypto';
import { exchangeApiTokenResponseSchema, type ExchangeApiTokenResponse } from '@frametext/contracts';
import { AppError, traceHeaders, type WorkloadCredentials } from '@frametext/service-kit';

/*
 * Personal API tokens at the door. The gateway trades a token at identity for a short-lived access token (a workload
 * call no client can make), keeps the answer only `cacheMs`, so a revoked token is refused within that bound even
 * if the feed of ended sessions were not read, and forwards the access token in its place: every service verifies
 * it as it verifies a session's, scope claim included. Each token also has a request budget per minute.
 */

export interface ApiTokenGateOptions {
  /** identity's exchange endpoint (`/internal/api-tokens/exchange`). */
  exchangeUrl: string;
  credentials: WorkloadCredentials;
  /** How long an exchange's answer (a grant or a refusal) is reused. */
  cacheMs: number;
  /** Each token's budget: this many requests a minute, refilled continuously (a burst of as many is allowed). */
  requestsPerMinute: number;
  timeoutMs: number;
}

type Exchange = { at: number; answer: Promise<ExchangeApiTokenResponse> };

/** Entries beyond which the caches drop their stale entries (a flood of made-up tokens must not grow memory). */
const MAX_ENTRIES = 10_000;

export class ApiTokenGate {
  private readonly exchanges = new Map<string, Exchange>();
  private readonly budgets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly opts: ApiTokenGateOptions) {}

  /** The grant for a presented personal token: from the cache when younger than `cacheMs`, else from identity. */
  exchange(presented: string): Promise<ExchangeApiTokenResponse> {
    const key = createHash('sha256').update(presented).digest('hex');
    const now = Date.now();
    const cached = this.exchanges.get(key);
    if (cached && now - cached.at < this.opts.cacheMs) return cached.answer;
    if (this.exchanges.size >= MAX_ENTRIES) dropOlderThan(this.exchanges, now - this.opts.cacheMs, (e) => e.at);
    const answer = this.ask(presented);
    this.exchanges.set(key, { at: now, answer });
    // Identity being unreachable is not an answer about the token: the next request asks again.
    answer.catch((err: unknown) => {
      if (!(err instanceof AppError) || err.status >= 500) this.exchanges.delete(key);
    });
    return answer;
  }

  /** Spends one request of the token's budget; 429 with the wait when it is spent. */
  spend(tokenId: string, onRefused: (retryAfterSeconds: number) => void): void {
    const perMs = this.opts.requestsPerMinute / 60_000;
    const now = Date.now();
    const budget = this.budgets.get(tokenId) ?? { tokens: this.opts.requestsPerMinute, at: now };
    budget.tokens = Math.min(this.opts.requestsPerMinute, budget.tokens + (now - budget.at) * perMs);
    budget.at = now;
    if (!this.budgets.has(tokenId)) {
      if (this.budgets.size >= MAX_ENTRIES) dropOlderThan(this.budgets, now - 60_000, (b) => b.at);
      this.budgets.set(tokenId, budget);
    }
    if (budget.tokens >= 1) {
      budget.tokens -= 1;
      return;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - budget.tokens) / perMs / 1000));
    onRefused(retryAfterSeconds);
    throw new AppError(
      429,
      'auth/api-token-rate-limited',
      `This API token made more than ${this.opts.requestsPerMinute} requests in a minute. Wait ${retryAfterSeconds} s and try again.`,
      { details: { retryAfterSeconds } },
    );
  }

  private async ask(presented: string): Promise<ExchangeApiTokenResponse> {
    let res: Response;
    try {
      res = await fetch(this.opts.exchangeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.opts.credentials.headers('identity'), ...traceHeaders() },
        body: JSON.stringify({ token: presented }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      throw unavailable(err);
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.ok) return exchangeApiTokenResponseSchema.parse(body);
    // identity's refusal of the token itself (401 unknown or revoked, 403 disabled account) is the client's answer.
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if ((res.status === 401 || res.status === 403) && typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new AppError(res.status, error.code, error.message);
    }
    throw unavailable(new Error(`the API token exchange answered ${res.status}`));
  }
}

function unavailable(cause: unknown): AppError {
  return new AppError(503, 'gateway/api-tokens-unavailable', 'API tokens cannot be checked right now. Please try again shortly.', { cause });
}

function dropOlderThan<V>(map: Map<string, V>, before: number, timeOf: (v: V) => number): void {
  for (const [key, value] of map) if (timeOf(value) < before) map.delete(key);
  // Still full of fresh entries: drop the oldest half (Maps iterate in insertion order).
  if (map.size >= MAX_ENTRIES) for (const key of [...map.keys()].slice(0, map.size / 2)) map.delete(key);
}
