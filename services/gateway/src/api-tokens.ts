import { createHash } from 'node:crypto';
import { exchangeApiTokenResponseSchema, type ExchangeApiTokenResponse } from '@frametext/contracts';
import { AppError, type WorkloadCredentials } from '@frametext/service-kit';
import { MAX_ENTRIES, dropOlderThan } from './bounded-maps.js';
import { IdentityUnavailableError, postToIdentity } from './identity-calls.js';

/*
 * Personal API tokens at the door. The gateway trades a token at identity for a short-lived access token (a workload
 * call no client can make), keeps the answer only `cacheMs`, so a revoked token is refused within that bound even
 * if the feed of ended sessions were not read, and forwards the access token in its place: every service verifies
 * it as it verifies a session's, scope claim included. Its requests count against its owner's budget
 * (request-budget.ts), as those of every other token and browser session of theirs do.
 */

export interface ApiTokenGateOptions {
  /** identity's exchange endpoint (`/internal/api-tokens/exchange`). */
  exchangeUrl: string;
  credentials: WorkloadCredentials;
  /** How long an exchange's answer (a grant or a refusal) is reused. */
  cacheMs: number;
  exchangeTimeoutMs: number;
}

type Exchange = { at: number; answer: Promise<ExchangeApiTokenResponse> };

export class ApiTokenGate {
  private readonly exchanges = new Map<string, Exchange>();

  constructor(private readonly opts: ApiTokenGateOptions) {}

  /** The grant for a presented personal token: from the cache when younger than `cacheMs`, else from identity. */
  exchange(presented: string): Promise<ExchangeApiTokenResponse> {
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

  private async ask(presented: string): Promise<ExchangeApiTokenResponse> {
    try {
      return await postToIdentity(this.opts.exchangeUrl, { token: presented }, { credentials: this.opts.credentials, timeoutMs: this.opts.exchangeTimeoutMs, parse: (body) => exchangeApiTokenResponseSchema.parse(body) });
    } catch (err) {
      if (err instanceof IdentityUnavailableError) throw unavailable(err);
      throw err;
    }
  }
}

const keyOf = (presented: string) => createHash('sha256').update(presented).digest('hex');

function unavailable(cause: unknown): AppError {
  return new AppError(503, 'gateway/api-tokens-unavailable', 'API tokens cannot be checked right now. Please try again shortly.', { cause });
}
