import { createHash } from 'node:crypto';
import {
  apiTokenBudgetResponseSchema,
  exchangeApiTokenResponseSchema,
  type ApiTokenBudgetRequest,
  type ApiTokenBudgetResponse,
  type ExchangeApiTokenResponse,
} from '@frametext/contracts';
import { AppError, traceHeaders, type Logger, type WorkloadCredentials } from '@frametext/service-kit';
import { ApiTokenBudget } from './api-token-budget.js';
import { MAX_ENTRIES, dropOlderThan } from './bounded-maps.js';

/*
 * Personal API tokens at the door. The gateway trades a token at identity for a short-lived access token (a workload
 * call no client can make), keeps the answer only `cacheMs`, so a revoked token is refused within that bound even
 * if the feed of ended sessions were not read, and forwards the access token in its place: every service verifies
 * it as it verifies a session's, scope claim included. Each token also has a request budget per minute, shared by
 * every gateway replica (api-token-budget.ts).
 */

export interface ApiTokenGateOptions {
  /** identity's exchange endpoint (`/internal/api-tokens/exchange`). */
  exchangeUrl: string;
  /** identity's shared request budgets (`/internal/api-tokens/budget`). */
  budgetUrl: string;
  credentials: WorkloadCredentials;
  /** How long an exchange's answer (a grant or a refusal) is reused. */
  cacheMs: number;
  /** Each token's budget: this many requests a minute, refilled continuously (a burst of as many is allowed). */
  requestsPerMinute: number;
  exchangeTimeoutMs: number;
  /** Past this, a request that waits for a lease of its budget is counted by this replica alone (fail open to it). */
  budgetTimeoutMs: number;
}

/** How long leased requests may be spent before they go back: bounds the overshoot to this share of a minute's budget. */
const LEASE_MS = 5_000;
/** After identity failed to count, how long a replica counts alone before it asks again. */
const RETRY_IDENTITY_MS = 5_000;

type Exchange = { at: number; answer: Promise<ExchangeApiTokenResponse> };

export class ApiTokenGate {
  private readonly exchanges = new Map<string, Exchange>();
  private readonly budget: ApiTokenBudget;

  constructor(
    private readonly opts: ApiTokenGateOptions,
    logger: Pick<Logger, 'warn'>,
  ) {
    this.budget = new ApiTokenBudget({
      requestsPerMinute: opts.requestsPerMinute,
      lease: (request) => this.leaseBudget(request),
      leaseMs: LEASE_MS,
      retryIdentityMs: RETRY_IDENTITY_MS,
      logger,
    });
  }

  /**
   * The grant for a presented token, once it is within its request budget (429 otherwise, with `onRefused` told the
   * wait). identity refusing the budget of a token revoked since its exchange was cached ends that cache entry.
   */
  async admit(presented: string, onRefused: (retryAfterSeconds: number) => void): Promise<ExchangeApiTokenResponse> {
    const grant = await this.exchange(presented);
    try {
      await this.budget.spend(grant.tokenId, onRefused);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) this.exchanges.delete(keyOf(presented));
      throw err;
    }
    return grant;
  }

  /** The grant for a presented personal token: from the cache when younger than `cacheMs`, else from identity. */
  private exchange(presented: string): Promise<ExchangeApiTokenResponse> {
    const key = keyOf(presented);
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

  private ask(presented: string): Promise<ExchangeApiTokenResponse> {
    return this.post(this.opts.exchangeUrl, { token: presented }, this.opts.exchangeTimeoutMs, (body) => exchangeApiTokenResponseSchema.parse(body));
  }

  private leaseBudget(request: ApiTokenBudgetRequest): Promise<ApiTokenBudgetResponse> {
    return this.post(this.opts.budgetUrl, request, this.opts.budgetTimeoutMs, (body) => apiTokenBudgetResponseSchema.parse(body));
  }

  /** A workload call to identity; its refusal of the token itself (401 unknown or revoked, 403 disabled account) is the client's answer. */
  private async post<T>(url: string, payload: unknown, timeoutMs: number, parse: (body: unknown) => T): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.opts.credentials.headers('identity'), ...traceHeaders() },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw unavailable(err);
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.ok) return parse(body);
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if ((res.status === 401 || res.status === 403) && typeof error?.code === 'string' && typeof error.message === 'string') {
      throw new AppError(res.status, error.code, error.message);
    }
    throw unavailable(new Error(`${url} answered ${res.status}`));
  }
}

const keyOf = (presented: string) => createHash('sha256').update(presented).digest('hex');

function unavailable(cause: unknown): AppError {
  return new AppError(503, 'gateway/api-tokens-unavailable', 'API tokens cannot be checked right now. Please try again shortly.', { cause });
}
