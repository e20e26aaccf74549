import type { ChannelModel } from 'amqplib';
import { afterEach, describe, expect, it } from 'vitest';
import { declareExchange, declareServiceQueues, queueNames, retryQueueName } from '../src/bus/topology.js';
import { on } from '../src/bus/types.js';
import { createLogger } from '../src/logging/logger.js';
import { eventually } from '../src/testing/index.js';
import { BusWorld, userCreated } from './bus-fixtures.js';
import { buildEnvelope } from '../src/bus/outbox.js';
import { encodeEnvelope, envelopeProperties } from '../src/bus/codec.js';

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const recordEffect = on('user.created.v1', async (event, { trx, attempt }) => {
  await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
});

/** What the broker answers a plain classic declaration of `queue`, as a release before quorum queues makes it. */
async function classicDeclaration(connection: ChannelModel, queue: string): Promise<string> {
  const ch = await connection.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.assertQueue(queue, { durable: true });
    return 'accepted';
  } catch (err) {
    return String(err);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const lines: { level: number; msg: string; queues?: string[] }[] = [];
  const logger = createLogger('queue-types', 'warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, warnings: () => lines.filter((l) => l.level === 40) };
}

describe('queue types', () => {
  it('declares a service\'s queues as quorum queues by default, and as classic ones with BUS_QUEUE_TYPE=classic', async () => {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const quorum = w.serviceName();
    const classic = w.serviceName();
    await w.startBus(quorum, s, [recordEffect]);
    await w.startBus(classic, s, [recordEffect], { queueType: 'classic' });
    const admin = await w.broker();
    expect(await classicDeclaration(admin, queueNames(quorum).dlq)).toMatch(/PRECONDITION_FAILED - inequivalent arg 'x-queue-type'/);
    for (const name of [quorum, retryQueueName(quorum, 200)]) expect(await classicDeclaration(admin, name), name).toMatch(/PRECONDITION_FAILED/);
    expect(await classicDeclaration(admin, queueNames(classic).dlq)).toBe('accepted');
    expect(await classicDeclaration(admin, classic)).toBe('accepted');
  });

  it('starts on a broker that holds an earlier release\'s classic queues: keeps them, says so, and handles what waits there and what comes', async () => {
    const w = (world = new BusWorld());
    const s = await w.schema();
    const service = w.serviceName();
    // What an earlier release declared, with a message waiting in it.
    const admin = await w.broker();
    const channel = await admin.createConfirmChannel();
    const earlier = { connection: admin, channel, queues: { type: 'classic' as const, maxInterruptions: 2 } };
    await declareExchange(earlier, w.exchange);
    await declareServiceQueues(earlier, w.exchange, service, ['user.created.v1'], { retryDelayMs: 200, maxAttempts: 3 });
    const waiting = buildEnvelope('user.created.v1', userCreated('waiting@example.com'));
    channel.publish(w.exchange, 'user.created.v1', encodeEnvelope(waiting), envelopeProperties(waiting));
    await channel.waitForConfirms();
    await channel.close();

    const { logger, warnings } = recordingLogger();
    const bus = await w.startBus(service, s, [recordEffect], { logger });
    await bus.ping();
    await bus.publish(buildEnvelope('user.created.v1', userCreated('after@example.com')));
    await eventually(async () => (await s.effects()).length === 2);
    expect((await s.effects()).map((e) => e.email).sort()).toEqual(['after@example.com', 'waiting@example.com']);

    expect(await classicDeclaration(admin, service)).toBe('accepted');
    const kept = warnings().find((l) => /kept as they are/.test(l.msg));
    expect(kept?.queues).toEqual(expect.arrayContaining([service, queueNames(service).dlq, retryQueueName(service, 200), retryQueueName(service, 400), `${w.exchange}.unrouted`]));
  });
});
