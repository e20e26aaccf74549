import type { BaseConfig } from '../config/index.js';
import type { Knex } from '../db/index.js';

/*
 * What the outbox and inbox keep, and for how long. A published event stays in the outbox a short while (it carries
 * its payload: recognised text, upload names), then goes. The inbox keeps ids and types only, never a payload, for
 * as long as a copy of a message may still arrive (a re-sent event, a redelivery, work redone after a crash with the
 * same derived ids): a copy that arrives later than that is handled again. So the inbox window must be far longer
 * than any message waits in a queue, and longer than the outbox keeps an event.
 */

export interface MessageRetention {
  /** How long an event stays in the outbox once the broker confirmed it. */
  outboxMs: number;
  /** How long the inbox remembers a handled message. */
  inboxMs: number;
  /** Rows deleted per statement; each statement is its own short transaction. */
  batchSize?: number;
}

export interface PrunedMessages {
  outbox: number;
  inbox: number;
  /** Start counts of messages never settled here (their queue was deleted or purged); settled ones go at once. */
  interrupted: number;
}

const DEFAULT_BATCH = 1000;

/** The retention the shared settings give. */
export function messageRetention(config: Pick<BaseConfig, 'OUTBOX_RETENTION_MINUTES' | 'INBOX_RETENTION_HOURS'>): MessageRetention {
  return { outboxMs: config.OUTBOX_RETENTION_MINUTES * 60_000, inboxMs: config.INBOX_RETENTION_HOURS * 3_600_000 };
}

/**
 * Deletes rows of `table` whose `time` is before `cutoff`, `batch` rows a statement until none is left. Rows another
 * replica's pass holds are skipped (SKIP LOCKED), so replicas share the work instead of waiting on each other.
 */
async function deleteOlderThan(db: Knex, table: string, key: string, time: string, cutoff: Date, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const due = db(table).select(key).where(time, '<', cutoff).limit(batch).forUpdate().skipLocked();
    const deleted = await db(table).whereIn(key, due).delete();
    total += deleted;
    if (deleted < batch) return total;
  }
}

/**
 * One pruning pass over the service's own schema: events published before `now` minus the outbox retention, and
 * inbox entries older than the inbox retention. Unpublished events are never touched. Answers what went.
 */
export async function pruneDeliveredMessages(db: Knex, retention: MessageRetention, now: Date = new Date()): Promise<PrunedMessages> {
  const batch = retention.batchSize ?? DEFAULT_BATCH;
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    outbox: await deleteOlderThan(db, 'outbox', 'id', 'published_at', before(retention.outboxMs), batch),
    inbox: await deleteOlderThan(db, 'inbox', 'message_id', 'handled_at', before(retention.inboxMs), batch),
    interrupted: await deleteOlderThan(db, 'interrupted_deliveries', 'message_id', 'first_at', before(retention.inboxMs), batch),
  };
}
