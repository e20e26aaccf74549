import { createHash, randomUUID } from 'node:crypto';
import { envelopeSchema, eventSchemas, type Envelope, type EventData, type EventType } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import { currentContext } from '../logging/context.js';
import { traceHeaders } from '../tracing/tracing.js';

export interface EnvelopeIds {
  /**
   * The event's own id, when running the same work again must give the same event (see {@link derivedEventId});
   * a new random one otherwise.
   */
  id?: string;
  correlationId?: string;
  causationId?: string | null;
}

/**
 * An event id that depends only on what it is derived from (the message being handled and the part of its work the
 * event reports), as an RFC 9562 version 8 UUID. Work that runs again after a crash writes the same ids, which the
 * outbox keeps once.
 */
export function derivedEventId(...parts: (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Builds a validated envelope for an event, taking the correlation and causation ids from the current context. */
export function buildEnvelope<T extends EventType>(type: T, data: EventData<T>, ids: EnvelopeIds = {}): Envelope<EventData<T>> {
  const ctx = currentContext();
  const envelope = {
    id: ids.id ?? randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    correlationId: ids.correlationId ?? ctx?.correlationId ?? randomUUID(),
    causationId: ids.causationId !== undefined ? ids.causationId : (ctx?.causationId ?? null),
    data: eventSchemas[type].parse(data) as EventData<T>,
  };
  envelopeSchema.parse(envelope);
  return envelope;
}

/** The relays of this process: told when a transaction of it that wrote to an outbox has committed. */
const outboxWatchers = new Set<() => void>();

/** Calls `wake` after each commit of this process that wrote to an outbox; answers how to stop. */
export function watchOutboxWrites(wake: () => void): () => void {
  outboxWatchers.add(wake);
  return () => outboxWatchers.delete(wake);
}

const wakeWatchers = () => outboxWatchers.forEach((wake) => wake());

interface Transactor {
  isTransaction?: boolean;
  parentTransaction?: Transactor;
  executionPromise?: Promise<unknown>;
}

/** Transactions already set to wake the relays at their commit (one wake however many events they write). */
const wakingAtCommit = new WeakSet<Transactor>();

/** Wakes the relays once `db`'s outermost transaction commits (a savepoint's release commits nothing), or now. */
function wakeAfterCommit(db: Knex | Knex.Transaction): void {
  let trx = db as unknown as Transactor;
  if (!trx.isTransaction) return wakeWatchers();
  while (trx.parentTransaction) trx = trx.parentTransaction;
  if (wakingAtCommit.has(trx)) return;
  wakingAtCommit.add(trx);
  trx.executionPromise?.then(wakeWatchers, () => undefined);
}

/**
 * Writes an event to the outbox inside the caller's transaction, so the event exists if and only if
 * the state change committed. An event whose id is already there (a derived id, written again) is kept once. `routingKey` defaults to the event type; OCR requests add the engine
 * (`ocr.requested.v1.server`) so each engine's workers get only their own. This process's relay publishes it right
 * after the commit (another replica's relay, or this one after a crash, at its next sweep).
 */
export async function enqueueEvent<T extends EventType>(trx: Knex | Knex.Transaction, type: T, data: EventData<T>, ids?: EnvelopeIds & { routingKey?: string }): Promise<Envelope<EventData<T>>> {
  const envelope = buildEnvelope(type, data, ids);
  // The span writing the event (a request's, a message's) becomes the parent of the span that handles it.
  const trace = traceHeaders();
  await trx('outbox').insert({
    id: envelope.id,
    type: envelope.type,
    routing_key: ids?.routingKey ?? envelope.type,
    envelope: JSON.stringify(envelope),
    trace_context: Object.keys(trace).length > 0 ? JSON.stringify(trace) : null,
  }).onConflict('id').ignore();
  wakeAfterCommit(trx);
  return envelope;
}

/**
 * Erasure: deletes this service's outbox rows of `type` (every type when none is given) whose data field `field`
 * equals `value` (the events of one person or one upload, when their data must go). The outbox keeps published rows for OUTBOX_RETENTION_MINUTES (see
 * bus/pruning.ts), so what they carried would outlive the person's account by that much otherwise. `publishedOnly`
 * keeps rows the relay has not sent yet (events others still need); without it an unsent row is dropped too and never
 * goes out. A row the relay is sending at that moment is deleted once sent. Answers how many rows were deleted.
 */
export async function forgetOutboxEvents(
  trx: Knex | Knex.Transaction,
  match: { type?: EventType | readonly EventType[]; field: string; value: string; publishedOnly?: boolean },
): Promise<number> {
  const query = trx('outbox').whereRaw(`envelope->'data'->>? = ?`, [match.field, match.value]);
  if (match.type) void query.whereIn('type', typeof match.type === 'string' ? [match.type] : [...match.type]);
  if (match.publishedOnly) void query.whereNotNull('published_at');
  return query.delete();
}
