import { revocationsResponseSchema } from '@frametext/contracts';
import type { Logger } from '../logging/logger.js';
import type { WorkloadCredentials } from './workload.js';
import { unsampledTraceHeaders } from '../tracing/tracing.js';
import { errorText } from '../errors/index.js';
import { repeat, type RepeatedTask } from '../jobs/repeat.js';

/** identity's route that lists the sessions ended (log-out, password reset) while their access tokens may still live. */
export const REVOCATIONS_PATH = '/internal/revocations';

/** Where the ids of ended sessions come from: identity's feed over HTTP, or identity's own table. */
export type RevocationSource = () => Promise<readonly string[]>;

/** Reads identity's feed with a workload token (audience `identity`). */
export function httpRevocationSource(url: string, credentials: WorkloadCredentials, timeoutMs = 2_000): RevocationSource {
  return async () => {
    const res = await fetch(url, { headers: { ...credentials.headers('identity'), ...unsampledTraceHeaders() }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`the revocation feed answered ${res.status}`);
    return revocationsResponseSchema.parse(await res.json()).sessions;
  };
}

/**
 * The sessions that have ended, as this process last heard: refreshed every `intervalMs` from the source, so a
 * log-out ends a session's access tokens everywhere within seconds. Until the first answer arrives the set is
 * `loaded: false` (readiness says so); after that a failing source keeps the last answer and logs why.
 */
export class RevokedSessions {
  private sessions = new Set<string>();
  private loadedAt: number | undefined;
  private polls: RepeatedTask | undefined;
  private polling: Promise<void> | undefined;
  private failures = 0;

  constructor(
    private readonly source: RevocationSource,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  get loaded(): boolean {
    return this.loadedAt !== undefined;
  }

  /** Loads once now (without waiting for success) and then every interval. */
  start(): void {
    this.polls ??= repeat(() => this.refresh(), { everyMs: this.intervalMs, atStart: true });
  }

  /** Polls no more; answers once the poll in progress, if any, has ended. */
  async stop(): Promise<void> {
    const polls = this.polls;
    this.polls = undefined;
    await polls?.stop();
    await this.polling;
  }

  /** One poll; overlapping calls share it. */
  refresh(): Promise<void> {
    return (this.polling ??= this.poll().finally(() => (this.polling = undefined)));
  }

  /** Readiness: fails until the first list has arrived. */
  async check(): Promise<void> {
    if (!this.loaded) throw new Error('the list of ended sessions has not been read yet');
  }

  private async poll(): Promise<void> {
    try {
      this.sessions = new Set(await this.source());
      this.loadedAt = Date.now();
      if (this.failures > 0) this.logger.info({ failures: this.failures }, 'revocation feed reachable again');
      this.failures = 0;
    } catch (err) {
      this.failures += 1;
      // Once a minute at most (at the default interval), so an identity outage does not flood the log.
      if (this.failures === 1 || this.failures % 30 === 0) {
        this.logger.warn({ err: errorText(err), failures: this.failures }, 'revocation feed not reachable; keeping the last list');
      }
    }
  }
}
