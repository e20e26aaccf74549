import { randomUUID } from 'node:crypto';
import { envelopeSchema, eventSchemas, type Envelope, type EventData, type EventType } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import { currentContext } from '../logging/context.js';
import { traceHeaders } from '../tracing/tracing.js';

/** Builds a validated envelope for an event, taking the correlation and causation ids from the current context. */
export function buildEnvelope<T extends EventType>(type: T, data: EventData<T>, ids: { correlationId?: string; causationId?: string | null } = {}): Envelope<EventData<T>> {
  const ctx = currentContext();
  const envelope = {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    correlationId: ids.correlationId ?? ctx?.correlationId ?? randomUUID(),
    causationId: ids.causationId !== undefined ? ids.causationId : (ctx?.causationId ?? null),
    data: eventSchemas[type].parse(data) as EventData<T>,
  };
  envelopeSchema.parse(envelope);
  return envelope;
}

/**
 * Writes an event to the outbox inside the caller's transaction, so the event exists if and only if
 * the state change committed. `routingKey` defaults to the event type; OCR requests add the engine
 * (`ocr.requested.v1.server`) so each engine's workers get only their own. The relay publishes it after commit (and again after a crash).
 */
export async function enqueueEvent<T extends EventType>(trx: Knex | Knex.Transaction, type: T, data: EventData<T>, ids?: { correlationId?: string; causationId?: string | null; routingKey?: string }): Promise<Envelope<EventData<T>>> {
  const envelope = buildEnvelope(type, data, ids);
  // The span writing the event (a request's, a message's) becomes the parent of the span that handles it.
  const trace = traceHeaders();
  await trx('outbox').insert({
    id: envelope.id,
    type: envelope.type,
    routing_key: ids?.routingKey ?? envelope.type,
    envelope: JSON.stringify(envelope),
    trace_context: Object.keys(trace).length > 0 ? JSON.stringify(trace) : null,
  });
  return envelope;
}

/**
 * Erasure: deletes this service's outbox rows of `type` whose data field `field` equals `value` (the events of one
 * person, when their personal data must go). The outbox keeps published rows, so what they carried would outlive the
 * person's account otherwise. `publishedOnly` keeps rows the relay has not sent yet (events others still need); without
 * it an unsent row is dropped too and never goes out. A row the relay is sending at that moment is deleted once sent.
 * Answers how many rows were deleted.
 */
export async function forgetOutboxEvents(
  trx: Knex | Knex.Transaction,
  match: { type: EventType | readonly EventType[]; field: string; value: string; publishedOnly?: boolean },
): Promise<number> {
  const types = typeof match.type === 'string' ? [match.type] : [...match.type];
  const query = trx('outbox').whereIn('type', types).whereRaw(`envelope->'data'->>? = ?`, [match.field, match.value]);
  if (match.publishedOnly) void query.whereNotNull('published_at');
  return query.delete();
}
