import { connect, type ConfirmChannel, type GetMessage } from 'amqplib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '@frametext/contracts';
import { encodeEnvelope, envelopeProperties } from '../src/bus/codec.js';
import { ConsumerRunner, DEAD_REASON_HEADER } from '../src/bus/consumer.js';
import { buildEnvelope } from '../src/bus/outbox.js';
import { declareExchange, declareServiceQueues, queueNames, type Declared, type QueueType } from '../src/bus/topology.js';
import { onPrepared } from '../src/bus/types.js';
import { TEST_RABBITMQ_URL, TEST_RETRY_POLICY, eventually, testLogger } from '../src/testing/index.js';
import { BusWorld, userCreated, type ServiceSchema } from './bus-fixtures.js';

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const MAX_INTERRUPTIONS = 2;

/** Declares the service's queues as `declaredAs` (what an earlier release left), then as `type` (what this one asks). */
async function declare(w: BusWorld, service: string, type: QueueType, declaredAs: QueueType = type): Promise<{ channel: ConfirmChannel; declared: Declared }> {
  const connection = await w.broker();
  const channel = await connection.createConfirmChannel();
  const as = (t: QueueType) => ({ connection, channel, queues: { type: t, maxInterruptions: MAX_INTERRUPTIONS } });
  if (declaredAs !== type) {
    await declareExchange(as(declaredAs), w.exchange);
    await declareServiceQueues(as(declaredAs), w.exchange, service, ['user.created.v1'], TEST_RETRY_POLICY);
  }
  await declareExchange(as(type), w.exchange);
  return { channel, declared: await declareServiceQueues(as(type), w.exchange, service, ['user.created.v1'], TEST_RETRY_POLICY) };
}

/**
 * Publishes one message, then starts worker after worker that takes it and dies in the middle of it (its connection
 * goes away with the message unacked), until the message is in the dead-letter queue.
 */
async function dieOnIt(w: BusWorld, s: ServiceSchema, service: string, publisher: { channel: ConfirmChannel }) {
  const envelope = buildEnvelope('user.created.v1', userCreated());
  publisher.channel.publish(w.exchange, 'user.created.v1', encodeEnvelope(envelope), envelopeProperties(envelope));
  await publisher.channel.waitForConfirms();
  let started = 0;
  const fatal = onPrepared(
    'user.created.v1',
    () => {
      started++;
      return new Promise<never>(() => undefined);
    },
    async () => undefined,
  );
  const dlq = queueNames(service).dlq;
  for (;;) {
    const connection = await connect(TEST_RABBITMQ_URL);
    connection.on('error', () => undefined);
    const publisherChannel = await connection.createConfirmChannel();
    const consumer = await connection.createChannel();
    const runner = new ConsumerRunner({
      service,
      db: s.db,
      logger: testLogger('dying-worker'),
      prefetch: 1,
      ...TEST_RETRY_POLICY,
      maxInterruptions: MAX_INTERRUPTIONS,
      consumers: [fatal],
      sendToQueue: async (queue, content, options) => {
        publisherChannel.sendToQueue(queue, content, options);
        await publisherChannel.waitForConfirms();
      },
    });
    const before = started;
    await runner.attach({ connection, publisher: publisherChannel, consumer });
    const outcome = await eventually(async () => (started > before ? 'died' : (await w.messageCount(dlq)) === 1 ? 'dead-lettered' : undefined), 10_000, 20);
    // Closing the connection waits for the broker to take what was sent on it (the ack of a dead-lettered message).
    await connection.close();
    if (outcome === 'dead-lettered') break;
  }
  const dead: GetMessage[] = await w.drain(dlq);
  return { started, dead: dead[0]!, envelope: envelope as Envelope };
}

describe('a message that kills its worker', () => {
  it.each([
    ['quorum queues (the default)', 'quorum', 'quorum'],
    ['classic queues (BUS_QUEUE_TYPE=classic)', 'classic', 'classic'],
    ['classic queues an earlier release left, kept as they are', 'quorum', 'classic'],
  ] as const)(`is dead-lettered with the reason by the service on %s, after ${MAX_INTERRUPTIONS + 1} deliveries with no answer`, async (_, type, declaredAs) => {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const service = w.serviceName();
    const publisher = await declare(w, service, type, declaredAs);
    expect(publisher.declared.kept.includes(service)).toBe(type !== declaredAs);

    const { started, dead, envelope } = await dieOnIt(w, s, service, publisher);
    expect(started).toBe(MAX_INTERRUPTIONS + 1);
    expect(String(dead.properties.headers?.[DEAD_REASON_HEADER])).toMatch(/stopped 3 times with no answer \(the worker died/);
    expect(JSON.parse(dead.content.toString())).toMatchObject({ id: envelope.id });
    expect(await w.messageCount(service)).toBe(0);
    expect(await s.db('interrupted_deliveries').count({ n: '*' }).first()).toEqual({ n: 0 });
  }, 60_000);
});

describe('a message handed back unstarted', () => {
  it(`does not count as an interruption: after ${2 * (MAX_INTERRUPTIONS + 1)} hand-backs on a quorum queue it is still handled`, async () => {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const service = w.serviceName();
    const publisher = await declare(w, service, 'quorum');
    const envelope = buildEnvelope('user.created.v1', userCreated());
    publisher.channel.publish(w.exchange, 'user.created.v1', encodeEnvelope(envelope), envelopeProperties(envelope));
    await publisher.channel.waitForConfirms();
    // A worker that stops (or scales in, or loses its broker) returns what it had prefetched and not started.
    for (let i = 0; i < 2 * (MAX_INTERRUPTIONS + 1); i++) {
      const connection = await w.broker();
      const channel = await connection.createChannel();
      expect(await eventually(async () => (await channel.get(service, { noAck: false })) || undefined, 10_000, 20)).toBeTruthy();
      await channel.close();
    }
    let handled = 0;
    const runner = new ConsumerRunner({
      service,
      db: s.db,
      logger: testLogger('worker'),
      prefetch: 1,
      ...TEST_RETRY_POLICY,
      maxInterruptions: MAX_INTERRUPTIONS,
      consumers: [onPrepared('user.created.v1', async () => undefined, async () => void handled++)],
      sendToQueue: async () => {
        throw new Error('nothing is retried or dead-lettered here');
      },
    });
    const connection = await w.broker();
    await runner.attach({ connection, publisher: await connection.createConfirmChannel(), consumer: await connection.createChannel() });
    await eventually(async () => (handled === 1 && (await w.messageCount(service)) === 0 ? true : undefined), 10_000, 20);
    await runner.stop();
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
  }, 60_000);
});
