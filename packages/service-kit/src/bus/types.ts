import type { Envelope, EventData, EventType } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import type { Logger } from '../logging/logger.js';
import type { QueueStats } from './queue-probe.js';
import type { QueueType } from './topology.js';
import type { ServiceMetrics } from '../metrics/definitions.js';
import type { TraceCarrier } from '../tracing/tracing.js';
import type { Tracer } from '@opentelemetry/api';

export interface HandlerContext {
  /** The transaction the inbox row is written in: write the handler's state changes (and outbox events) here. */
  trx: Knex.Transaction;
  log: Logger;
  /** 1 on first delivery, 2 on the first retry... */
  attempt: number;
  /** What the consumer's `prepare` step returned (undefined without one). */
  prepared?: unknown;
  /**
   * Work to do once the handler's transaction has committed, such as removing files the handler's rows no longer
   * point at. Best effort: it runs after the commit and the ack, a failure is logged and the message stays handled,
   * so whatever it does must also be done by something durable (a job that reads the committed rows).
   */
  afterCommit(work: () => Promise<unknown>): void;
}

/** What a `prepare` step sees: no transaction, since none is open while it runs. */
export type PrepareContext = Omit<HandlerContext, 'trx' | 'prepared' | 'afterCommit'>;

export type EventHandler<T extends EventType> = (event: Envelope<EventData<T>>, ctx: HandlerContext) => Promise<void>;

/** One subscription of a service: an event type, an optional binding pattern, and its handler. */
export interface Consumer<T extends EventType = EventType> {
  type: T;
  /** Routing key pattern to bind; defaults to the event type. */
  binding?: string;
  handler: EventHandler<T>;
  /**
   * Slow work (a call to a cloud API) run before the handler's transaction opens, so no database connection is
   * held while it runs; the handler receives its result as `ctx.prepared`. It is skipped for a message the inbox
   * already holds; a throw is retried like a failing handler. The message is still acked only after the commit.
   */
  prepare?: (event: Envelope<EventData<T>>, ctx: PrepareContext) => Promise<unknown>;
  /**
   * Consumed from the service's urgent queue (`<service>.urgent`, see {@link urgent}) instead of its work queue, so
   * its messages never wait behind the work already queued there.
   */
  urgent?: boolean;
}

/**
 * Moves a consumer to the service's urgent queue, `<service>.urgent`, consumed beside the work queue with a prefetch
 * of its own: a deletion that must stop an upload's frames is handled while those frames still wait in `<service>`.
 */
export function urgent<T extends EventType>(consumer: Consumer<T>): Consumer<T> {
  return { ...consumer, urgent: true };
}

/** Declares a subscription with its handler typed by the event. */
export function on<T extends EventType>(type: T, handler: EventHandler<T>, binding?: string): Consumer<T> {
  return { type, handler, binding };
}

/**
 * Declares a subscription in two steps: `prepare` does the slow work outside any transaction, then `commit` writes
 * its outcome (state, outbox events) in the inbox transaction: claim, work, then one short transaction.
 */
export function onPrepared<T extends EventType, P>(
  type: T,
  prepare: (event: Envelope<EventData<T>>, ctx: PrepareContext) => Promise<P>,
  commit: (event: Envelope<EventData<T>>, ctx: HandlerContext & { prepared: P }) => Promise<void>,
  binding?: string,
): Consumer<T> {
  return { type, binding, prepare, handler: (event, ctx) => commit(event, { ...ctx, prepared: ctx.prepared as P }) };
}

export interface BusOptions {
  url: string;
  exchange: string;
  /**
   * The consuming service's name: its queue is `<service>`, retries wait in `<service>.retry.<delay>ms`, dead letters in
   * `<service>.dlq`; urgent consumers have the same three under `<service>.urgent`.
   */
  service: string;
  prefetch: number;
  maxAttempts: number;
  /**
   * Handling starts of one attempt that may end with no answer (the worker died) before the message is
   * dead-lettered, counted by the consumer; a quorum work queue's delivery limit is a backstop above it.
   */
  maxInterruptions: number;
  /** What the durable queues are declared as; an existing queue with other arguments is kept as it is. Default quorum. */
  queueType?: QueueType;
  retryDelayMs: number;
  logger: Logger;
  /** The service's database (its schema holds outbox and inbox). Required to consume or to run the relay. */
  db?: Knex;
  /** How long start() keeps trying to reach the broker before it throws. Default 30 s. */
  connectTimeoutMs?: number;
  /** How long publish() waits for a connection and a confirm (retrying across reconnects) before it throws. Default 10 s. */
  publishTimeoutMs?: number;
  /** The service's metrics: consumed messages are counted by outcome. */
  metrics?: ServiceMetrics;
  /** Interval of the outbox sweep that re-sends whatever a crash or an outage left behind. Default 2 s. */
  relaySweepMs?: number;
  /** Handling a message is a consumer span, child of the span that wrote the event (its `traceparent` header). */
  tracer?: Tracer;
}

export interface Bus {
  /** Connects, declares the exchange and the service's queues, starts consumers and the outbox relay. */
  start(consumers?: Consumer[]): Promise<void>;
  /**
   * Publishes one envelope with publisher confirms (used by the relay; services write to the outbox instead), with the
   * trace context of the span that wrote it as headers.
   */
  publish(envelope: Envelope, routingKey?: string, trace?: TraceCarrier): Promise<void>;
  /** Runs one pass of the outbox relay now (tests and start-up). */
  flushOutbox(): Promise<number>;
  /** Throws if the broker connection is not usable (readiness). */
  ping(): Promise<void>;
  /** A queue's ready messages and consumers right now (0 and 0 when it does not exist); throws when the broker is not reachable. */
  queueStats(queue: string): Promise<QueueStats>;
  /** Stops taking messages, waits for handlers in hand, stops the relay and closes the connection. */
  close(): Promise<void>;
}
