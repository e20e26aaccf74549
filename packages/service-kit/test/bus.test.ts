import { afterEach, describe, expect, it } from 'vitest';
import { assertConsumers } from '../src/bus/bus.js';
import { ATTEMPT_HEADER, DEAD_REASON_HEADER, LAST_ERROR_HEADER } from '../src/bus/consumer.js';
import { buildEnvelope, derivedEventId, enqueueEvent, forgetOutboxEvents } from '../src/bus/outbox.js';
import { queueNames } from '../src/bus/topology.js';
import { on, onPrepared, type Consumer } from '../src/bus/types.js';
import { createDb } from '../src/db/index.js';
import { createServiceMetrics, type ServiceMetrics } from '../src/metrics/definitions.js';
import { TEST_DATABASE_URL, eventually, uniqueName } from '../src/testing/index.js';
import { BusWorld, sleep, userCreated, type ServiceSchema } from './bus-fixtures.js';

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});
function newWorld(): BusWorld {
  world = new BusWorld();
  return world;
}

/** The consumer most tests use: one effects row per handled event, in the handler's transaction. */
function recordEffect(): Consumer {
  return on('user.created.v1', async (event, { trx, attempt }) => {
    await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
  });
}

async function outboxRows(s: ServiceSchema) {
  return s.db('outbox').select('id', 'published_at', 'attempts', 'envelope').orderBy('created_at');
}

/**
 * What a consumer has done with the deliveries it took, by outcome (handled, duplicate, failed, retried,
 * dead_lettered). A delivery is counted once it is settled: acked, after its retry or dead letter is sent.
 */
async function outcomes(metrics: ServiceMetrics): Promise<Record<string, number>> {
  return Object.fromEntries((await metrics.busMessages.get()).values.map((v) => [v.labels.outcome, v.value]));
}

describe('outbox relay', () => {
  it('sends events committed before a crash once the service is back, each exactly once', async () => {
    const w = newWorld();
    const consumerSchema = await w.schema();
    const consumer = w.serviceName();
    const metrics = createServiceMetrics(consumer);
    await w.startBus(consumer, consumerSchema, [recordEffect()], { metrics });

    // The producer committed its state and events, then died before its relay published anything.
    const producerSchema = await w.schema();
    const written = await producerSchema.db.transaction(async (trx) => [
      await enqueueEvent(trx, 'user.created.v1', userCreated('first@example.com')),
      await enqueueEvent(trx, 'user.created.v1', userCreated('second@example.com')),
    ]);
    expect((await outboxRows(producerSchema)).every((r) => r.published_at === null)).toBe(true);

    // The restarted producer is a publish-only service: its relay alone sends the backlog, in order.
    const producer = await w.startBus(w.serviceName(), producerSchema);
    await eventually(async () => (await consumerSchema.effects()).length === 2);
    expect((await consumerSchema.effects()).map((e) => e.message_id).sort()).toEqual(written.map((e) => e.id).sort());
    expect((await outboxRows(producerSchema)).every((r) => r.published_at !== null)).toBe(true);
    expect(await producer.flushOutbox()).toBe(0);

    // Crash between publish and mark: the row goes out again and the consumer's inbox absorbs it.
    await producerSchema.db('outbox').where({ id: written[0]!.id }).update({ published_at: null });
    expect(await producer.flushOutbox()).toBe(1);
    await eventually(async () => Object.values(await outcomes(metrics)).reduce((a, b) => a + b, 0) === 3);
    expect(await outcomes(metrics)).toEqual({ handled: 2, duplicate: 1 });
    expect(await consumerSchema.effects()).toHaveLength(2);
  });

  it('keeps an event with a derived id once when the same work writes it again (a re-run after a crash), and delivers it once', async () => {
    const w = newWorld();
    const consumerSchema = await w.schema();
    await w.startBus(w.serviceName(), consumerSchema, [recordEffect()]);
    const producerSchema = await w.schema();
    const id = derivedEventId('message-1', 'user.created.v1', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedEventId('message-1', 'user.created.v1', 1)).not.toBe(id);
    expect(derivedEventId('message-2', 'user.created.v1', 0)).not.toBe(id);

    await enqueueEvent(producerSchema.db, 'user.created.v1', userCreated('once@example.com'), { id });
    await enqueueEvent(producerSchema.db, 'user.created.v1', userCreated('once@example.com'), { id });
    expect(await outboxRows(producerSchema)).toHaveLength(1);
    const producer = await w.startBus(w.serviceName(), producerSchema);
    await eventually(async () => (await consumerSchema.effects()).length === 1);
    await enqueueEvent(producerSchema.db, 'user.created.v1', userCreated('once@example.com'), { id });
    // Written again after it was sent: nothing left for the relay to send (this pass runs after any in progress), and
    // still the one row, sent.
    expect(await producer.flushOutbox()).toBe(0);
    expect(await outboxRows(producerSchema)).toMatchObject([{ id, published_at: expect.any(Date) }]);
    expect((await consumerSchema.effects()).map((e) => e.message_id)).toEqual([id]);
  });

  it('forgets the events of one person on request: sent ones, or unsent ones too, never anyone else\'s', async () => {
    const w = newWorld();
    const s = await w.schema();
    const ada = userCreated('ada@example.com');
    const bob = userCreated('bob@example.com');
    const [sent, unsent, other] = await s.db.transaction(async (trx) => [
      await enqueueEvent(trx, 'user.created.v1', ada),
      await enqueueEvent(trx, 'user.created.v1', ada),
      await enqueueEvent(trx, 'user.created.v1', bob),
    ]);
    await s.db('outbox').whereIn('id', [sent!.id, other!.id]).update({ published_at: new Date() });

    expect(await forgetOutboxEvents(s.db, { type: 'user.created.v1', field: 'uid', value: ada.uid, publishedOnly: true })).toBe(1);
    expect((await outboxRows(s)).map((r) => r.id)).toEqual([unsent!.id, other!.id]);
    expect(await forgetOutboxEvents(s.db, { type: ['user.created.v1', 'user.deleted.v1'], field: 'uid', value: ada.uid })).toBe(1);
    expect((await outboxRows(s)).map((r) => r.id)).toEqual([other!.id]);
  });

  it('keeps an event no service is bound for in <exchange>.unrouted instead of dropping it', async () => {
    const w = newWorld();
    const producerSchema = await w.schema();
    const producer = await w.startBus(w.serviceName(), producerSchema);
    await producer.publish(buildEnvelope('user.created.v1', userCreated('nobody-listens@example.com')));
    const kept = await eventually(async () => {
      const messages = await w.drain(`${w.exchange}.unrouted`);
      return messages.length ? messages : undefined;
    });
    expect(JSON.parse(kept[0]!.content.toString()).data.email).toBe('nobody-listens@example.com');
  });

  it('publishes right after its own process commits, without waiting for the sweep, a savepoint at the outer commit', async () => {
    const w = newWorld();
    const consumerSchema = await w.schema();
    await w.startBus(w.serviceName(), consumerSchema, [recordEffect()]);
    const producerSchema = await w.schema();
    await w.startBus(w.serviceName(), producerSchema, [], { relaySweepMs: 60_000 });
    const effectsCount = (n: number) =>
      eventually(async () => {
        const rows = await consumerSchema.effects();
        return rows.length === n ? rows : undefined;
      }, 3_000);

    const sent = await producerSchema.db.transaction((trx) => enqueueEvent(trx, 'user.created.v1', userCreated()));
    expect((await effectsCount(1))[0]!.message_id).toBe(sent.id);
    const nested = await producerSchema.db.transaction((outer) => outer.transaction((inner) => enqueueEvent(inner, 'user.created.v1', userCreated('nested@example.com'))));
    expect((await effectsCount(2)).map((e) => e.message_id)).toContain(nested.id);
  });

  it('carries the correlation id forward and names the handled event as the cause of the events a handler writes', async () => {
    const w = newWorld();
    const s = await w.schema();
    const followUp = on('user.created.v1', async (event, { trx }) => {
      // Routed off our own binding, so the follow-up is not consumed again here.
      await enqueueEvent(trx, 'user.created.v1', userCreated(`again-${event.data.email}`), { routingKey: 'user.created.v1.followup' });
    });
    const bus = await w.startBus(w.serviceName(), s, [followUp]);

    const original = buildEnvelope('user.created.v1', userCreated('origin@example.com'), { correlationId: 'corr-1234567890' });
    await bus.publish(original);
    const rows = await eventually(async () => {
      const r = await outboxRows(s);
      return r.length === 1 ? r : undefined;
    });
    expect(rows[0]!.envelope).toMatchObject({ correlationId: 'corr-1234567890', causationId: original.id, data: { email: 'again-origin@example.com' } });
  });
});

describe('consuming', () => {
  it('runs afterCommit work once the handler committed: not for a redelivery, not when the handler fails, and a failing one leaves the message handled', async () => {
    const w = newWorld();
    const s = await w.schema();
    const ran: { email: string; committed: boolean }[] = [];
    const withCleanup = on('user.created.v1', async (event, { trx, attempt, afterCommit }) => {
      await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
      afterCommit(async () => {
        // Another connection sees the handler's row: the work runs after the commit, not inside the transaction.
        const committed = (await s.db('effects').where({ message_id: event.id }).first()) !== undefined;
        ran.push({ email: event.data.email, committed });
        if (event.data.email.startsWith('broken')) throw new Error('cleanup failed');
      });
      if (event.data.email.startsWith('rolls-back') && attempt === 1) throw new Error('handler failed');
    });
    const service = w.serviceName();
    const bus = await w.startBus(service, s, [withCleanup], { prefetch: 1, retryDelayMs: 50 });

    const once = buildEnvelope('user.created.v1', userCreated('once@example.com'));
    await bus.publish(once);
    await bus.publish(once);
    await bus.publish(buildEnvelope('user.created.v1', userCreated('rolls-back@example.com')));
    await bus.publish(buildEnvelope('user.created.v1', userCreated('broken@example.com')));
    const marker = buildEnvelope('user.created.v1', userCreated('marker@example.com'));
    await bus.publish(marker);

    await eventually(async () => ran.some((r) => r.email === 'marker@example.com') && ran.some((r) => r.email === 'rolls-back@example.com'));
    expect([...ran].sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'broken@example.com', committed: true },
      { email: 'marker@example.com', committed: true },
      { email: 'once@example.com', committed: true },
      // The first attempt rolled back, so its work never ran; the retry's did.
      { email: 'rolls-back@example.com', committed: true },
    ]);
    expect((await s.effects()).map((e) => e.email).sort()).toEqual(['broken@example.com', 'marker@example.com', 'once@example.com', 'rolls-back@example.com']);
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
  });

  it('a redelivered message (same envelope id twice) changes nothing', async () => {
    const w = newWorld();
    const s = await w.schema();
    // One at a time, so when the marker is handled both copies before it have been handled too.
    const bus = await w.startBus(w.serviceName(), s, [recordEffect()], { prefetch: 1 });

    const envelope = buildEnvelope('user.created.v1', userCreated('twice@example.com'));
    await bus.publish(envelope);
    await bus.publish(envelope);
    const marker = buildEnvelope('user.created.v1', userCreated('marker@example.com'));
    await bus.publish(marker);

    await eventually(async () => (await s.effects()).some((e) => e.message_id === marker.id));
    expect((await s.effects()).map((e) => e.email)).toEqual(['twice@example.com', 'marker@example.com']);
    expect(await s.db('inbox').count({ n: '*' }).first()).toEqual({ n: 2 });
  });

  it('sends poison messages straight to <service>.dlq with the reason, without running the handler', async () => {
    const w = newWorld();
    const s = await w.schema();
    const service = w.serviceName();
    let calls = 0;
    const counting = on('user.created.v1', async (event, { trx, attempt }) => {
      calls++;
      await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
    });
    const bus = await w.startBus(service, s, [counting], { prefetch: 1 });

    const badData = { ...buildEnvelope('user.created.v1', userCreated()), data: { uid: 'not-a-uuid', email: 'nope' } };
    await w.publishRaw('user.created.v1', '{ this is not json');
    await w.publishRaw('user.created.v1', JSON.stringify({ hello: 'world' }));
    await w.publishRaw('user.created.v1', JSON.stringify(badData));
    const marker = buildEnvelope('user.created.v1', userCreated('still-working@example.com'));
    await bus.publish(marker);

    await eventually(async () => (await s.effects()).length === 1);
    expect(calls).toBe(1);
    const dead = await eventually(async () => {
      const count = await w.messageCount(queueNames(service).dlq);
      return count === 3 ? w.drain(queueNames(service).dlq) : undefined;
    });
    const reasons = dead.map((m) => String(m.properties.headers?.[DEAD_REASON_HEADER]));
    expect(reasons[0]).toMatch(/not valid JSON/);
    expect(reasons[1]).toMatch(/invalid envelope/);
    expect(reasons[2]).toMatch(/invalid data for user\.created\.v1: uid/);
    expect(dead[0]!.content.toString()).toBe('{ this is not json');

    // The originals were acked: nothing comes back to the work queue once the consumer lets go.
    await bus.close();
    expect(await w.messageCount(queueNames(service).main)).toBe(0);
  });

  it('refuses to publish an envelope whose data fails the event schema', async () => {
    const w = newWorld();
    const s = await w.schema();
    const bus = await w.startBus(w.serviceName(), s);
    const bad = { ...buildEnvelope('user.created.v1', userCreated()), data: { uid: 'x' } };
    await expect(bus.publish(bad)).rejects.toThrow(/invalid data for user\.created\.v1/);
  });

  it('retries a failing handler with a delay; its effect happens once', async () => {
    const w = newWorld();
    const s = await w.schema();
    const service = w.serviceName();
    const calls: { attempt: number; at: number }[] = [];
    const flaky = on('user.created.v1', async (event, { trx, attempt }) => {
      calls.push({ attempt, at: Date.now() });
      // Written before failing, so a rollback that did not happen would show up as extra rows.
      await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
      if (calls.length < 3) throw new Error(`transient failure ${calls.length}`);
    });
    const metrics = createServiceMetrics(service);
    const bus = await w.startBus(service, s, [flaky], { metrics });

    await bus.publish(buildEnvelope('user.created.v1', userCreated('flaky@example.com')));
    await eventually(async () => (await s.effects()).length === 1);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(180);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(380);
    expect(await s.effects()).toMatchObject([{ email: 'flaky@example.com', attempt: 3 }]);
    // The third delivery settled (acked): two failures sent to retry, one handled, none dead-lettered.
    await eventually(async () => (await outcomes(metrics)).handled === 1);
    expect(await outcomes(metrics)).toEqual({ failed: 2, retried: 2, handled: 1 });
    expect(await w.messageCount(queueNames(service).dlq)).toBe(0);
  });

  it('dead-letters a handler that always fails after maxAttempts, with the last error', async () => {
    const w = newWorld();
    const s = await w.schema();
    const service = w.serviceName();
    let calls = 0;
    const broken = on('user.created.v1', async () => {
      calls++;
      throw new Error(`storage unavailable (call ${calls})`);
    });
    const metrics = createServiceMetrics(service);
    const bus = await w.startBus(service, s, [broken], { maxAttempts: 3, metrics });

    const envelope = buildEnvelope('user.created.v1', userCreated());
    await bus.publish(envelope);
    const dead = await eventually(async () => ((await w.messageCount(queueNames(service).dlq)) === 1 ? w.drain(queueNames(service).dlq) : undefined));
    expect(calls).toBe(3);
    const headers = dead[0]!.properties.headers ?? {};
    expect(headers[LAST_ERROR_HEADER]).toBe('storage unavailable (call 3)');
    expect(headers[ATTEMPT_HEADER]).toBe(3);
    expect(headers['x-original-routing-key']).toBe('user.created.v1');
    expect(JSON.parse(dead[0]!.content.toString())).toMatchObject({ id: envelope.id });
    expect(dead[0]!.properties.messageId).toBe(envelope.id);
    // The last delivery settled (acked once its dead letter was sent): no retry was sent, so no fourth call comes.
    await eventually(async () => (await outcomes(metrics)).dead_lettered === 1);
    expect(await outcomes(metrics)).toEqual({ failed: 3, retried: 2, dead_lettered: 1 });
    expect(calls).toBe(3);
  });
});

describe('retries that wait different times', () => {
  it('do not block each other: a first retry (1 s) is not held behind a later one (2 s) that was queued before it', async () => {
    const w = newWorld();
    const s = await w.schema();
    const service = w.serviceName();
    const failUntil = new Map<string, number>();
    const handledAt = new Map<string, number>();
    const failedAt = new Map<string, number[]>();
    const flaky = on('user.created.v1', async (event, { attempt }) => {
      if (attempt < (failUntil.get(event.data.email) ?? 0)) {
        failedAt.set(event.data.email, [...(failedAt.get(event.data.email) ?? []), attempt]);
        throw new Error(`not yet (attempt ${attempt})`);
      }
      handledAt.set(event.data.email, Date.now());
    });
    const bus = await w.startBus(service, s, [flaky], { maxAttempts: 3, retryDelayMs: 1_000 });

    // "slow" fails twice: its second retry waits 2 s. Right after it is queued for that, "quick" fails once: 1 s.
    failUntil.set('slow@example.com', 3);
    failUntil.set('quick@example.com', 2);
    await bus.publish(buildEnvelope('user.created.v1', userCreated('slow@example.com')));
    await eventually(() => failedAt.get('slow@example.com')?.length === 2, 10_000, 10);
    await bus.publish(buildEnvelope('user.created.v1', userCreated('quick@example.com')));
    await eventually(() => handledAt.size === 2, 10_000, 20);
    expect(handledAt.get('quick@example.com')!).toBeLessThan(handledAt.get('slow@example.com')!);
  }, 20_000);
});

describe('prepare: slow work before the transaction', () => {
  it('runs the work with no transaction open, hands its result to the commit, and skips it for a message already handled', async () => {
    const w = newWorld();
    const s = await w.schema();
    // One connection in the pool: work that ran inside the transaction could not query at all.
    const single = createDb(TEST_DATABASE_URL, s.schema, { max: 1 });
    const prepared: string[] = [];
    const consumer = onPrepared(
      'user.created.v1',
      async (event) => {
        prepared.push(event.id);
        await single.raw('select 1');
        return event.data.email.toUpperCase();
      },
      async (event, { trx, attempt, prepared: shout }) => {
        await trx('effects').insert({ message_id: event.id, attempt, email: shout });
      },
    );
    const bus = await w.startBus(w.serviceName(), { ...s, db: single }, [consumer], { prefetch: 1 });
    try {
      const envelope = buildEnvelope('user.created.v1', userCreated('quiet@example.com'));
      await bus.publish(envelope);
      await eventually(async () => (await s.effects()).length === 1);
      await bus.publish(envelope);
      const marker = buildEnvelope('user.created.v1', userCreated('marker@example.com'));
      await bus.publish(marker);
      await eventually(async () => (await s.effects()).length === 2);

      expect(await s.effects()).toMatchObject([
        { email: 'QUIET@EXAMPLE.COM', attempt: 1 },
        { email: 'MARKER@EXAMPLE.COM', attempt: 1 },
      ]);
      expect(prepared).toEqual([envelope.id, marker.id]);
    } finally {
      await bus.close();
      await single.destroy();
    }
  });

  it('retries a failing prepare step like a failing handler', async () => {
    const w = newWorld();
    const s = await w.schema();
    let calls = 0;
    const consumer = onPrepared(
      'user.created.v1',
      async () => {
        calls++;
        if (calls < 2) throw new Error('the cloud API is busy');
        return calls;
      },
      async (event, { trx, attempt }) => {
        await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
      },
    );
    const bus = await w.startBus(w.serviceName(), s, [consumer]);
    await bus.publish(buildEnvelope('user.created.v1', userCreated('busy@example.com')));
    await eventually(async () => (await s.effects()).length === 1);
    expect(await s.effects()).toMatchObject([{ email: 'busy@example.com', attempt: 2 }]);
  });
});

describe('queueStats', () => {
  it('counts the consumers and ready messages of a queue, and 0 for a queue that does not exist, without breaking the bus', async () => {
    const w = newWorld();
    const s = await w.schema();
    const consuming = w.serviceName();
    const bus = await w.startBus(consuming, s, [recordEffect()]);
    expect(await bus.queueStats(consuming)).toEqual({ messages: 0, consumers: 1 });
    expect(await bus.queueStats(uniqueName('no_such_queue'))).toEqual({ messages: 0, consumers: 0 });
    // The 404 closed only the probe's own channel: the bus still consumes.
    await bus.publish(buildEnvelope('user.created.v1', userCreated('still@example.com')));
    await eventually(async () => (await s.effects()).length === 1);
    await bus.close();
    await expect(bus.queueStats(consuming)).rejects.toThrow(/Not connected/);
  });
});

describe('lifecycle', () => {
  it('ping answers only while connected; close is idempotent', async () => {
    const w = newWorld();
    const s = await w.schema();
    const bus = w.bus(w.serviceName(), s);
    await expect(bus.ping()).rejects.toThrow(/Not connected/);
    await bus.start([recordEffect()]);
    await expect(bus.ping()).resolves.toBeUndefined();
    await Promise.all([bus.close(), bus.close()]);
    await bus.close();
    await expect(bus.ping()).rejects.toThrow(/Not connected/);
  });

  it('close waits for the handler in hand, which commits and is acked', async () => {
    const w = newWorld();
    const s = await w.schema();
    const service = w.serviceName();
    let started = false;
    const slow = on('user.created.v1', async (event, { trx, attempt }) => {
      started = true;
      await sleep(300);
      await trx('effects').insert({ message_id: event.id, attempt, email: event.data.email });
    });
    const bus = await w.startBus(service, s, [slow]);
    await bus.publish(buildEnvelope('user.created.v1', userCreated()));
    await eventually(() => started);
    await bus.close();
    expect(await s.effects()).toHaveLength(1);
    expect(await w.messageCount(queueNames(service).main)).toBe(0);
  });
});

describe('assertConsumers', () => {
  const handler = recordEffect();

  it('accepts exactly one consumer per consumed event', () => {
    expect(() => assertConsumers('results', ['user.created.v1'], [handler])).not.toThrow();
    expect(() => assertConsumers('gateway', [], [])).not.toThrow();
  });

  it('refuses an event with no consumer', () => {
    expect(() => assertConsumers('results', ['user.created.v1'], [])).toThrow(/results refuses to start: no consumer handles "user\.created\.v1"/);
  });

  it('refuses an event with two consumers', () => {
    expect(() => assertConsumers('results', ['user.created.v1'], [handler, recordEffect()])).toThrow(/2 consumers handle "user\.created\.v1"/);
  });

  it('refuses a consumer for an event the service does not declare, or one outside the registry', () => {
    expect(() => assertConsumers('results', [], [handler])).toThrow(/"user\.created\.v1", which is not in the events results consumes/);
    expect(() => assertConsumers('results', ['photo.taken.v1' as never], [{ ...handler, type: 'photo.taken.v1' as never }])).toThrow(/"photo\.taken\.v1" is not an event of the contracts registry/);
  });
});
