import { connect, type Channel, type ChannelModel } from 'amqplib';
import { buildEnvelope } from '../bus/outbox.js';
import { createBus } from '../bus/bus.js';
import type { Bus } from '../bus/types.js';
import type { Envelope, EventData, EventType } from '@frametext/contracts';
import { allQueueNames } from '../bus/topology.js';
import { eventually, testLogger, TEST_RABBITMQ_URL, TEST_RETRY_POLICY, uniqueName } from './basics.js';

/** One event seen on the exchange: its routing key and envelope. */
export interface SeenEvent {
  routingKey: string;
  envelope: Envelope;
}

/**
 * Watches what is published on an exchange (a queue of its own, bound to the given patterns, made before the
 * service under test starts so nothing is missed).
 */
export interface ExchangeWatch {
  seen: SeenEvent[];
  /** The data of every event of `type` seen so far. */
  dataOf<T extends EventType>(type: T): EventData<T>[];
  close(): Promise<void>;
}

export async function watchExchange(exchange: string, patterns: string[]): Promise<ExchangeWatch> {
  const conn: ChannelModel = await connect(TEST_RABBITMQ_URL);
  const channel: Channel = await conn.createChannel();
  const unrouted = `${exchange}.unrouted`;
  await channel.assertExchange(unrouted, 'fanout', { durable: true });
  await channel.assertExchange(exchange, 'topic', { durable: true, alternateExchange: unrouted });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const pattern of patterns) await channel.bindQueue(queue, exchange, pattern);
  const seen: SeenEvent[] = [];
  await channel.consume(
    queue,
    (msg) => {
      if (msg) seen.push({ routingKey: msg.fields.routingKey, envelope: JSON.parse(msg.content.toString('utf8')) as Envelope });
    },
    { noAck: true },
  );
  return {
    seen,
    dataOf: <T extends EventType>(type: T) => seen.filter((s) => s.envelope.type === type).map((s) => s.envelope.data as EventData<T>),
    close: () => conn.close().catch(() => undefined),
  };
}

/** Publishes events onto an exchange as another service's relay would, with publisher confirms. */
export interface TestPublisher {
  /** Builds an envelope (a fresh id) for `data` and publishes it; `times` > 1 sends the same message again, as a redelivery would. */
  publish<T extends EventType>(type: T, data: EventData<T>, opts?: { routingKey?: string; times?: number }): Promise<Envelope<EventData<T>>>;
  /** Publishes an envelope as it is (the same id again is what a redelivery looks like). */
  publishEnvelope(envelope: Envelope, routingKey?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startPublisher(exchange: string): Promise<TestPublisher> {
  const bus: Bus = createBus({
    url: TEST_RABBITMQ_URL,
    exchange,
    service: uniqueName('test_publisher'),
    prefetch: 1,
    maxAttempts: 1,
    maxInterruptions: 0,
    retryDelayMs: 100,
    logger: testLogger('publisher'),
  });
  await bus.start();
  return {
    async publish(type, data, opts = {}) {
      const envelope = buildEnvelope(type, data);
      for (let i = 0; i < (opts.times ?? 1); i++) await bus.publish(envelope as Envelope, opts.routingKey);
      return envelope;
    },
    publishEnvelope: (envelope, routingKey) => bus.publish(envelope, routingKey),
    close: () => bus.close(),
  };
}

/** Removes what a test made on the broker: its exchange (with the unrouted one) and each service's queues. */
export async function deleteBrokerObjects(exchange: string, services: string[]): Promise<void> {
  // A test may have restarted the broker on purpose: wait for it to come back.
  const conn = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
  try {
    for (const name of [...services.flatMap((s) => allQueueNames(s, TEST_RETRY_POLICY)), `${exchange}.unrouted`]) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(name).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const name of [exchange, `${exchange}.unrouted`]) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteExchange(name).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}
