import { connect } from 'amqplib';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeEnvelope, envelopeProperties } from '../src/bus/codec.js';
import { ConsumerRunner, DEAD_REASON_HEADER } from '../src/bus/consumer.js';
import { buildEnvelope } from '../src/bus/outbox.js';
import { declareExchange, declareServiceQueues, queueNames } from '../src/bus/topology.js';
import { onPrepared } from '../src/bus/types.js';
import { TEST_RABBITMQ_URL, TEST_RETRY_POLICY, eventually, testLogger } from '../src/testing/index.js';
import { BusWorld, sleep, userCreated } from './bus-fixtures.js';

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const MAX_INTERRUPTIONS = 2;

describe('a message that kills its worker', () => {
  it(`is dead-lettered with the reason once more than ${MAX_INTERRUPTIONS} deliveries ended with no answer, instead of coming back forever`, async () => {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const service = w.serviceName();
    const admin = await (await w.broker()).createConfirmChannel();
    await declareExchange(admin, w.exchange);
    await declareServiceQueues(admin, w.exchange, service, ['user.created.v1'], TEST_RETRY_POLICY);
    const envelope = buildEnvelope('user.created.v1', userCreated());
    admin.publish(w.exchange, 'user.created.v1', encodeEnvelope(envelope), envelopeProperties(envelope));
    await admin.waitForConfirms();

    // Each "worker" takes the message and dies in the middle of it: its connection goes away with the message unacked.
    let started = 0;
    const fatal = onPrepared(
      'user.created.v1',
      () => {
        started++;
        return new Promise<never>(() => undefined);
      },
      async () => undefined,
    );
    for (let worker = 1; worker <= MAX_INTERRUPTIONS + 2; worker++) {
      const connection = await connect(TEST_RABBITMQ_URL);
      connection.on('error', () => undefined);
      const publisher = await connection.createConfirmChannel();
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
          publisher.sendToQueue(queue, content, options);
          await publisher.waitForConfirms();
        },
      });
      await runner.attach({ connection, publisher, consumer });
      if (worker <= MAX_INTERRUPTIONS + 1) {
        await eventually(() => started === worker, 10_000, 10);
        await connection.close();
      } else {
        // This delivery is not handled: the message goes to the dead-letter queue and is acked.
        const dead = await eventually(async () => ((await w.messageCount(queueNames(service).dlq)) === 1 ? w.drain(queueNames(service).dlq) : undefined), 10_000, 50);
        expect(String(dead[0]!.properties.headers?.[DEAD_REASON_HEADER])).toMatch(/stopped 3 times with no answer \(the worker died/);
        expect(JSON.parse(dead[0]!.content.toString())).toMatchObject({ id: envelope.id });
        await sleep(200);
        expect(await w.messageCount(service)).toBe(0);
        await connection.close();
      }
    }
    expect(started).toBe(MAX_INTERRUPTIONS + 1);
    expect(await s.db('interrupted_deliveries').count({ n: '*' }).first()).toEqual({ n: 0 });
  }, 60_000);
});
