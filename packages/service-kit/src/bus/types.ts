import type { Envelope, EventData, EventType } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import type { Logger } from '../logging/logger.js';

export interface HandlerContext {
  /** The transaction the inbox row is written in: write the handler's state changes (and outbox events) here. */
  trx: Knex.Transaction;
  log: Logger;
  /** 1 on first delivery, 2 on the first retry... */
  attempt: number;
}

export type EventHandler<T extends EventType> = (event: Envelope<EventData<T>>, ctx: HandlerContext) => Promise<void>;

/** One subscription of a service: an event type, an optional binding pattern, and its handler. */
export interface Consumer<T extends EventType = EventType> {
  type: T;
  /** Routing key pattern to bind; defaults to the event type. */
  binding?: string;
  handler: EventHandler<T>;
}

/** Declares a subscription with its handler typed by the event. */
export function on<T extends EventType>(type: T, handler: EventHandler<T>, binding?: string): Consumer<T> {
  return { type, handler, binding };
}

export interface BusOptions {
  url: string;
  exchange: string;
  /** The consuming service's name: its queue is `<service>`, retries `<service>.retry`, dead letters `<service>.dlq`. */
  service: string;
  prefetch: number;
  maxAttempts: number;
  retryDelayMs: number;
  logger: Logger;
  /** The service's database (its schema holds outbox and inbox). Required to consume or to run the relay. */
  db?: Knex;
  /** Postgres schema of the service (for LISTEN/NOTIFY on its outbox). */
  schema?: string;
  /** How long start() keeps trying to reach the broker before it throws. Default 30 s. */
  connectTimeoutMs?: number;
  /** How long publish() waits for a connection and a confirm (retrying across reconnects) before it throws. Default 10 s. */
  publishTimeoutMs?: number;
  /** Interval of the outbox sweep that re-sends whatever a crash or an outage left behind. Default 2 s. */
  relaySweepMs?: number;
}

export interface Bus {
  /** Connects, declares the exchange and the service's queues, starts consumers and the outbox relay. */
  start(consumers?: Consumer[]): Promise<void>;
  /** Publishes one envelope with publisher confirms (used by the relay; services write to the outbox instead). */
  publish(envelope: Envelope, routingKey?: string): Promise<void>;
  /** Runs one pass of the outbox relay now (tests and start-up). */
  flushOutbox(): Promise<number>;
  /** Throws if the broker connection is not usable (readiness). */
  ping(): Promise<void>;
  /** Stops taking messages, waits for handlers in hand, stops the relay and closes the connection. */
  close(): Promise<void>;
}
