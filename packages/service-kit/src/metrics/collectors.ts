import type { Knex } from '../db/index.js';
import type { Bus } from '../bus/types.js';
import type { QueueStats } from '../bus/queue-probe.js';
import { queueNames, urgentQueueName } from '../bus/topology.js';
import { METRIC_NAMES, type ServiceMetrics } from './definitions.js';

/** tarn's pool as knex holds it: what is in use, idle, and waited for. */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * The gauges a service built on the kit has, read when Prometheus scrapes: its outbox backlog and the age of its oldest
 * unsent event, its queues' ready messages and consumers (from the broker), its database pool's use.
 */
export function registerServiceGauges(metrics: ServiceMetrics, opts: { db: Knex; bus: Bus; service: string; consumes: boolean; urgent?: boolean }): void {
  const { db, bus } = opts;
  metrics.gauge(METRIC_NAMES.outboxBacklog, 'Events written to the outbox and not yet published', [], async (set) => {
    const row = await db('outbox').whereNull('published_at').count<{ n: number }[]>({ n: '*' }).first();
    set({}, Number(row?.n ?? 0));
  });
  metrics.gauge(METRIC_NAMES.outboxOldestAge, 'Age of the oldest unpublished outbox event (0 when none)', [], async (set) => {
    const row = await db('outbox').whereNull('published_at').min<{ oldest: Date | null }[]>({ oldest: 'created_at' }).first();
    set({}, row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0);
  });
  if (opts.consumes) {
    const { main, dlq } = queueNames(opts.service);
    // The urgent queue's dead letters count like the work queue's (an alert fires on any dead-letter queue).
    const urgentDlq = opts.urgent ? queueNames(urgentQueueName(opts.service)).dlq : undefined;
    // The queue gauges come from one read of the broker per scrape (a second asks again only after a second).
    let last: { at: number; stats: Promise<{ work: QueueStats; dead: QueueStats; urgentDead?: QueueStats }> } | undefined;
    const read = () => {
      if (!last || Date.now() - last.at > 1_000) {
        const stats = Promise.all([bus.queueStats(main), bus.queueStats(dlq), urgentDlq ? bus.queueStats(urgentDlq) : undefined]).then(([work, dead, urgentDead]) => ({ work, dead, urgentDead }));
        last = { at: Date.now(), stats };
        stats.catch(() => (last = undefined));
      }
      return last.stats;
    };
    metrics.gauge(METRIC_NAMES.queueMessages, 'Messages ready in the service\'s queue and its dead-letter queue', ['queue'], async (set) => {
      const { work, dead, urgentDead } = await read();
      set({ queue: main }, work.messages);
      set({ queue: dlq }, dead.messages);
      if (urgentDlq && urgentDead) set({ queue: urgentDlq }, urgentDead.messages);
    });
    metrics.gauge(METRIC_NAMES.queueConsumers, 'Consumers of the service\'s queue (all replicas)', ['queue'], async (set) => {
      set({ queue: main }, (await read()).work.consumers);
    });
  }
  metrics.gauge(METRIC_NAMES.dbPoolConnections, 'Database pool connections: used, idle, and acquisitions waiting', ['state'], (set) => {
    const pool = (db.client as { pool?: PoolCounts }).pool;
    if (!pool) return;
    set({ state: 'used' }, pool.numUsed());
    set({ state: 'free' }, pool.numFree());
    set({ state: 'pending' }, pool.numPendingAcquires());
  });
}
