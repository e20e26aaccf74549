import type { Envelope } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import type { Logger } from '../logging/logger.js';
import { watchOutboxWrites } from './outbox.js';
import type { TraceCarrier } from '../tracing/tracing.js';
import { errorText } from '../errors/index.js';
import { repeat, type RepeatedTask } from '../jobs/repeat.js';

export interface OutboxRelayOptions {
  db: Knex;
  logger: Logger;
  sweepMs: number;
  batchSize?: number;
  publish(envelope: Envelope, routingKey: string, trace?: TraceCarrier): Promise<void>;
  /** Background passes run only while the broker is connected; a reconnect kicks a pass. */
  isConnected(): boolean;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  envelope: Envelope;
  trace_context: TraceCarrier | null;
}

/**
 * Publishes what services wrote to their outbox, oldest first, and marks it published. Woken right after each commit
 * of its own process that wrote an event (never by other replicas' writes: at 50 workers that would be every replica
 * on every frame), and by a periodic sweep that sends whatever another replica's crash or an outage left. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so replicas never send one twice at the same time; a row published but not
 * marked (crash in between) is sent again and deduped downstream.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private chain: Promise<unknown> = Promise.resolve();
  /** The pass asked for and not started yet, which further kicks join. */
  private kicked: Promise<void> | undefined;
  private stopped = false;
  private sweep: RepeatedTask | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly opts: OutboxRelayOptions) {
    this.batchSize = opts.batchSize ?? 100;
  }

  async start(): Promise<void> {
    this.unwatch = watchOutboxWrites(() => void this.kick());
    // A pass now, then the sweep: one every sweepMs, each waiting for the one before.
    this.sweep = repeat(() => this.kick(), { everyMs: this.opts.sweepMs, atStart: true });
  }

  /** Runs one pass now, after any pass in progress; returns how many rows it published. */
  flush(): Promise<number> {
    return this.exclusive(() => this.pass());
  }

  /**
   * Asks for a pass soon; many kicks while one is pending make one pass. Answers once that pass has ended (never
   * rejects: a failed pass is logged, and the sweep tries again).
   */
  kick(): Promise<void> {
    if (this.stopped || !this.opts.isConnected()) return Promise.resolve();
    return (this.kicked ??= this.exclusive(() => {
      this.kicked = undefined;
      return this.stopped || !this.opts.isConnected() ? Promise.resolve(0) : this.pass();
    }).then(
      () => undefined,
      (err: unknown) => this.opts.logger.warn({ err: errorText(err) }, 'outbox relay pass failed; the sweep will retry'),
    ));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatch?.();
    await this.sweep?.stop();
    await this.chain.catch(() => undefined);
  }

  private exclusive(fn: () => Promise<number>): Promise<number> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const { fetched, published, failed } = await this.batch();
      total += published;
      if (failed > 0 || fetched < this.batchSize) return total;
    }
  }

  private batch(): Promise<{ fetched: number; published: number; failed: number }> {
    return this.opts.db.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx('outbox').select('id', 'routing_key', 'envelope', 'trace_context').whereNull('published_at').orderBy('created_at').limit(this.batchSize).forUpdate().skipLocked();
      if (rows.length === 0) return { fetched: 0, published: 0, failed: 0 };
      // One channel keeps publish order; confirms are awaited together.
      const results = await Promise.allSettled(rows.map((row) => this.opts.publish(row.envelope, row.routing_key, row.trace_context ?? undefined)));
      const done: string[] = [];
      let failed = 0;
      for (const [i, result] of results.entries()) {
        const row = rows[i]!;
        if (result.status === 'fulfilled') {
          done.push(row.id);
        } else {
          failed++;
          const reason = errorText(result.reason);
          this.opts.logger.warn({ outboxId: row.id, type: row.envelope.type, err: reason }, 'outbox publish failed; will retry');
          await trx('outbox').where({ id: row.id }).update({ attempts: trx.raw('attempts + 1'), last_error: reason.slice(0, 2000) });
        }
      }
      if (done.length > 0) await trx('outbox').whereIn('id', done).update({ published_at: trx.fn.now() });
      return { fetched: rows.length, published: done.length, failed };
    });
  }
}
