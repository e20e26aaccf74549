import { connect, type ConfirmChannel, type GetMessage } from 'amqplib';
import { createServer, connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '@frametext/contracts';
import { encodeEnvelope, envelopeProperties } from '../src/bus/codec.js';
import { ConsumerRunner, DEAD_REASON_HEADER, type ConsumerRunnerOptions } from '../src/bus/consumer.js';
import { buildEnvelope } from '../src/bus/outbox.js';
import { declareExchange, declareServiceQueues, deliveryBackstop, queueNames, type Declared, type QueueType } from '../src/bus/topology.js';
import { onPrepared, type Consumer } from '../src/bus/types.js';
import { createDb, type Knex } from '../src/db/index.js';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, TEST_RETRY_POLICY, eventually, testLogger } from '../src/testing/index.js';
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

/** A worker of the service with one consumer, which retries and dead-letters through `confirming` (with confirms). */
function worker(service: string, db: Knex, consumer: Consumer, confirming: ConfirmChannel, overrides: Partial<ConsumerRunnerOptions> = {}): ConsumerRunner {
  return new ConsumerRunner({
    service,
    db,
    logger: testLogger('worker'),
    prefetch: 1,
    ...TEST_RETRY_POLICY,
    maxInterruptions: MAX_INTERRUPTIONS,
    consumers: [consumer],
    sendToQueue: async (queue, content, options) => {
      confirming.sendToQueue(queue, content, options);
      await confirming.waitForConfirms();
    },
    ...overrides,
  });
}

/** Publishes one user.created.v1 and waits for the broker to take it. */
async function publishOne(w: BusWorld, publisher: { channel: ConfirmChannel }): Promise<Envelope> {
  const envelope = buildEnvelope('user.created.v1', userCreated());
  publisher.channel.publish(w.exchange, 'user.created.v1', encodeEnvelope(envelope), envelopeProperties(envelope));
  await publisher.channel.waitForConfirms();
  return envelope as Envelope;
}

/**
 * Publishes one message, then starts worker after worker that takes it and dies in the middle of it (its connection
 * goes away with the message unacked), until the message is in the dead-letter queue.
 */
async function dieOnIt(w: BusWorld, s: ServiceSchema, service: string, publisher: { channel: ConfirmChannel }) {
  const envelope = await publishOne(w, publisher);
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
    const runner = worker(service, s.db, fatal, publisherChannel);
    const before = started;
    await runner.attach({ connection, publisher: publisherChannel, consumer });
    const outcome = await eventually(async () => (started > before ? 'died' : (await w.messageCount(dlq)) === 1 ? 'dead-lettered' : undefined), 10_000, 20);
    // A dead-lettering worker acks the message once the dead-letter queue has it: let it finish before its connection
    // goes. Closing the connection waits for the broker to take what was sent on it.
    if (outcome === 'dead-lettered') await runner.stop();
    await connection.close();
    if (outcome === 'dead-lettered') break;
  }
  const dead: GetMessage[] = await w.drain(dlq);
  return { started, dead: dead[0]!, envelope };
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
    await publishOne(w, publisher);
    // A worker that stops (or scales in, or loses its broker) returns what it had prefetched and not started.
    for (let i = 0; i < 2 * (MAX_INTERRUPTIONS + 1); i++) {
      const connection = await w.broker();
      const channel = await connection.createChannel();
      expect(await eventually(async () => (await channel.get(service, { noAck: false })) || undefined, 10_000, 20)).toBeTruthy();
      await channel.close();
    }
    let handled = 0;
    // Nothing is retried or dead-lettered here: a confirming channel that stays unused.
    const runner = worker(service, s.db, onPrepared('user.created.v1', async () => undefined, async () => void handled++), publisher.channel);
    const connection = await w.broker();
    await runner.attach({ connection, publisher: await connection.createConfirmChannel(), consumer: await connection.createChannel() });
    await eventually(async () => (handled === 1 && (await w.messageCount(service)) === 0 ? true : undefined), 10_000, 20);
    await runner.stop();
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
  }, 60_000);
});

/**
 * The database behind a TCP link that can be cut (every connection dropped, new ones closed at once and counted) and
 * restored, as a database restart looks to a service.
 */
async function databaseLink() {
  const target = new URL(TEST_DATABASE_URL);
  const open = new Set<Socket>();
  let cut = false;
  let refused = 0;
  const server = createServer((client) => {
    if (cut) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    refused: () => refused,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a message that comes while the database is unreachable', () => {
  /** A quorum-queue worker whose database is cut, with one message waiting for it. */
  async function workerWithoutDatabase() {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const service = w.serviceName();
    const publisher = await declare(w, service, 'quorum');
    const link = await databaseLink();
    const db = createDb(link.url, s.schema, { max: 2 });
    link.cut();
    const envelope = await publishOne(w, publisher);
    const handled: string[] = [];
    const runner = worker(service, db, onPrepared('user.created.v1', async () => undefined, async (e) => void handled.push(e.id)), publisher.channel, { retryDelayMs: 20 });
    const connection = await w.broker();
    await runner.attach({ connection, publisher: publisher.channel, consumer: await connection.createChannel() });
    // Tried more often than the queue's delivery limit allows: handed back each time, it would be dead-lettered.
    const tries = deliveryBackstop(MAX_INTERRUPTIONS) + 1;
    await eventually(() => link.refused() >= tries || undefined, 20_000, 10, `${tries} tries at the database`);
    const done = async () => {
      await runner.stop();
      await db.destroy();
      await link.close();
    };
    return { w, s, service, link, runner, handled, envelope, done };
  }

  it('is held while it is down, not dead-lettered for coming back, and handled once when it is back', async () => {
    const { w, s, service, link, handled, envelope, done } = await workerWithoutDatabase();
    link.restore();
    await eventually(async () => (handled.length === 1 && (await w.messageCount(service)) === 0) || undefined, 20_000, 20, 'the message handled');
    await done();
    expect(handled).toEqual([envelope.id]);
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
    // Its start was counted once, and forgotten when it was handled.
    expect(await s.db('interrupted_deliveries').count({ n: '*' }).first()).toEqual({ n: 0 });
  }, 60_000);

  it('goes back to the queue, unhandled, when the worker stops while holding it', async () => {
    const { w, service, handled, done } = await workerWithoutDatabase();
    await done();
    await eventually(async () => (await w.messageCount(service)) === 1 || undefined, 10_000, 20, 'the message back in the queue');
    expect(handled).toEqual([]);
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
  }, 60_000);
});
