import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { buildEnvelope, enqueueEvent } from '../src/bus/outbox.js';
import { on } from '../src/bus/types.js';
import { eventually } from '../src/testing/index.js';
import { BusWorld, sleep, userCreated } from './bus-fixtures.js';

// Stops and starts the shared broker: the test script runs *.serial.test.ts files alone, after the rest.
const run = promisify(execFile);
const rabbitmqctl = (...args: string[]) => run('rabbitmqctl', args, { timeout: 60_000 });

async function startBroker(): Promise<void> {
  await rabbitmqctl('start_app');
  await rabbitmqctl('await_startup');
}

const world = new BusWorld();
afterAll(async () => {
  await startBroker().catch(() => undefined);
  await world.cleanup();
});

it('a consumer and a relay reconnect after a broker restart and lose nothing published before, during or after it', { timeout: 120_000 }, async () => {
  const consumerSchema = await world.schema();
  const slow = on('user.created.v1', async (event, { trx, attempt }) => {
    // Slow enough that some messages are in hand when the broker goes away.
    await sleep(30);
    await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
  });
  const consumer = await world.startBus(world.serviceName(), consumerSchema, [slow], { prefetch: 2 });
  const producerSchema = await world.schema();
  const producer = await world.startBus(world.serviceName(), producerSchema, [], { publishTimeoutMs: 60_000 });

  const expected: string[] = [];
  for (let i = 0; i < 20; i++) {
    const envelope = buildEnvelope('user.created.v1', userCreated(`before-${i}@example.com`));
    await producer.publish(envelope);
    expected.push(envelope.id);
  }

  let publishedDuringOutage: Promise<void> | undefined;
  try {
    await rabbitmqctl('stop_app');
    await eventually(() => consumer.ping().then(() => false, () => true));
    await expect(consumer.ping()).rejects.toThrow(/Not connected/);

    // While the broker is down: events committed to the outbox, and a direct publish that waits for the broker.
    for (let i = 0; i < 3; i++) {
      const envelope = await producerSchema.db.transaction((trx) => enqueueEvent(trx, 'user.created.v1', userCreated(`outbox-${i}@example.com`)));
      expected.push(envelope.id);
    }
    const during = buildEnvelope('user.created.v1', userCreated('during@example.com'));
    expected.push(during.id);
    publishedDuringOutage = producer.publish(during);
    await sleep(1_000);
  } finally {
    await startBroker();
  }
  await publishedDuringOutage;

  const after = buildEnvelope('user.created.v1', userCreated('after@example.com'));
  await producer.publish(after);
  expected.push(after.id);

  await eventually(async () => (await consumerSchema.effects()).length >= expected.length, 30_000, 200);
  await sleep(1_000);
  const handled = (await consumerSchema.effects()).map((e) => e.message_id);
  expect(handled).toHaveLength(expected.length);
  expect([...handled].sort()).toEqual([...expected].sort());
  await consumer.ping();
  expect(await producerSchema.db('outbox').whereNull('published_at').count({ n: '*' }).first()).toEqual({ n: 0 });
});
