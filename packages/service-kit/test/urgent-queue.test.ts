import { afterEach, describe, expect, it } from 'vitest';
import { buildEnvelope } from '../src/bus/outbox.js';
import { urgentQueueName } from '../src/bus/topology.js';
import { on, urgent } from '../src/bus/types.js';
import { eventually } from '../src/testing/index.js';
import { BusWorld, userCreated } from './bus-fixtures.js';

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

describe('urgent consumers', () => {
  it('handle their messages from <service>.urgent while the work queue is busy and full', async () => {
    const w = (world = new BusWorld());
    const at = await w.schema();
    const service = w.serviceName();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    await w.startBus(
      service,
      at,
      [
        // Slow work: each message waits at the gate, one in hand at a time.
        on('user.created.v1', async (event, { trx, attempt }) => {
          started += 1;
          await gate;
          await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
        }),
        urgent(
          on('upload.deleted.v1', async (event, { trx, attempt }) => {
            await trx('effects').insert({ message_id: event.id, attempt, email: `deleted ${event.data.uploadId}` });
          }),
        ),
      ],
      { prefetch: 1 },
    );
    const publisher = await w.startBus(w.serviceName(), await w.schema());
    for (let i = 0; i < 3; i++) await publisher.publish(buildEnvelope('user.created.v1', userCreated()));
    await eventually(() => started === 1);

    // The deletion is published behind the queued work, and handled before any of it.
    await publisher.publish(buildEnvelope('upload.deleted.v1', { uploadId: 'u-1', userId: 'someone' }));
    await eventually(async () => (await at.effects()).length === 1);
    expect((await at.effects()).map((e) => e.email)).toEqual(['deleted u-1']);
    expect(started).toBe(1);
    expect(await w.messageCount(service)).toBe(2);
    expect(await w.messageCount(urgentQueueName(service))).toBe(0);

    release();
    await eventually(async () => (await at.effects()).length === 4);
  });
});
