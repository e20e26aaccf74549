import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { busMigrations } from '../src/bus/migrations.js';
import { enqueueEvent } from '../src/bus/outbox.js';
import { pruneDeliveredMessages, type MessageRetention } from '../src/bus/pruning.js';
import { serviceConfig } from '../src/config/index.js';
import { createDb, migrate, type Knex } from '../src/db/index.js';
import { TEST_DATABASE_URL, startTestService, uniqueName } from '../src/testing/index.js';
import { BusWorld, userCreated, type ServiceSchema } from './bus-fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const retention: MessageRetention = { outboxMs: 10 * MINUTE, inboxMs: 72 * HOUR };

let world: BusWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});
async function freshSchema(): Promise<ServiceSchema> {
  world ??= new BusWorld();
  return world.schema();
}

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);

/** An outbox row as the relay leaves it: published at `publishedAt`, or still waiting (null). */
async function outboxRow(db: Knex, publishedAt: Date | null): Promise<string> {
  const id = randomUUID();
  const envelope = { id, type: 'user.created.v1', occurredAt: new Date().toISOString(), correlationId: id, causationId: null, data: userCreated() };
  await db('outbox').insert({ id, type: 'user.created.v1', routing_key: 'user.created.v1', envelope: JSON.stringify(envelope), published_at: publishedAt });
  return id;
}

async function inboxRow(db: Knex, handledAt: Date): Promise<string> {
  const id = randomUUID();
  await db('inbox').insert({ message_id: id, type: 'user.created.v1', handled_at: handledAt });
  return id;
}

const ids = async (db: Knex, table: string, key: string) => (await db(table).pluck(key)).sort();

describe('pruning the outbox and the inbox', () => {
  it('deletes events published longer ago than the outbox keeps them, and inbox entries past the window; nothing else', async () => {
    const { db } = await freshSchema();
    const now = new Date();
    // Sent 11 minutes ago: past the 10 the outbox keeps it.
    await outboxRow(db, ago(now, 11 * MINUTE));
    const sentJustNow = await outboxRow(db, ago(now, 1 * MINUTE));
    // Never published (the broker was down for an hour): it still has to go out, however old.
    const waiting = await outboxRow(db, null);
    await db('outbox').where({ id: waiting }).update({ created_at: ago(now, HOUR) });
    const handledLongAgo = await inboxRow(db, ago(now, 73 * HOUR));
    const handledYesterday = await inboxRow(db, ago(now, 24 * HOUR));
    await db('interrupted_deliveries').insert([
      { message_id: handledLongAgo, attempt: 1, count: 1, first_at: ago(now, 73 * HOUR) },
      { message_id: handledYesterday, attempt: 1, count: 1, first_at: ago(now, 1 * MINUTE) },
    ]);

    expect(await pruneDeliveredMessages(db, retention, now)).toEqual({ outbox: 1, inbox: 1, interrupted: 1 });
    expect(await ids(db, 'outbox', 'id')).toEqual([sentJustNow, waiting].sort());
    expect(await ids(db, 'inbox', 'message_id')).toEqual([handledYesterday]);
    expect(await ids(db, 'interrupted_deliveries', 'message_id')).toEqual([handledYesterday]);

    // Within the window the inbox still holds the id: a copy of that message arriving now changes nothing.
    expect(await pruneDeliveredMessages(db, retention, now)).toEqual({ outbox: 0, inbox: 0, interrupted: 0 });
  });

  it('deletes in batches until none is due, and replicas pruning at once delete each row once', async () => {
    const { db } = await freshSchema();
    const now = new Date();
    for (let i = 0; i < 25; i++) await outboxRow(db, ago(now, HOUR));
    for (let i = 0; i < 25; i++) await inboxRow(db, ago(now, 100 * HOUR));
    const small = { ...retention, batchSize: 4 };
    const passes = await Promise.all([pruneDeliveredMessages(db, small, now), pruneDeliveredMessages(db, small, now), pruneDeliveredMessages(db, small, now)]);
    expect(passes.reduce((sum, p) => sum + p.outbox, 0)).toBe(25);
    expect(passes.reduce((sum, p) => sum + p.inbox, 0)).toBe(25);
    expect(await db('outbox').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await db('inbox').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('finds what is due through an index, however large the tables grow', async () => {
    const { db } = await freshSchema();
    const cutoff = new Date();
    // The planner picks a sequential scan for tables this small; forbidding it shows whether an index can serve instead.
    const plan = (table: string, key: string, time: string) =>
      db.transaction(async (trx) => {
        await trx.raw('set local enable_seqscan = off');
        const due = trx(table).select(key).where(time, '<', cutoff).limit(1000).forUpdate().skipLocked();
        const { rows } = await trx.raw(`explain ${trx(table).whereIn(key, due).delete().toString()}`);
        return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      });
    expect(await plan('outbox', 'id', 'published_at')).toMatch(/Index (Only )?Scan (using|on) outbox_published/);
    expect(await plan('inbox', 'message_id', 'handled_at')).toMatch(/Index (Only )?Scan (using|on) inbox_handled/);
  });

  it('gets its indexes on an outbox that already holds events (an upgrade), built concurrently and valid', async () => {
    const schema = uniqueName('pruning_upgrade');
    const db = createDb(TEST_DATABASE_URL, schema, { max: 2 });
    try {
      const before = busMigrations.filter((m) => m.name !== '0004_kit_pruning_indexes');
      await migrate(db, schema, before);
      await outboxRow(db, new Date());
      await inboxRow(db, new Date());
      await migrate(db, schema, busMigrations);
      const indexes = await db('pg_indexes').where({ schemaname: schema }).whereIn('indexname', ['outbox_published', 'inbox_handled']).pluck('indexname');
      expect(indexes.sort()).toEqual(['inbox_handled', 'outbox_published']);
      const valid = await db.raw(`select bool_and(i.indisvalid) as valid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = ?`, [schema]);
      expect(valid.rows[0].valid).toBe(true);
    } finally {
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
    }
  });
});

describe('every service prunes on its own', () => {
  it('deletes its events once published and the outbox retention has passed', async () => {
    const configSchema = serviceConfig({ PORT: z.coerce.number().int().default(0) });
    const svc = await startTestService({
      role: 'pruning',
      configSchema,
      env: { OUTBOX_RETENTION_MINUTES: '0', MESSAGE_PRUNE_INTERVAL_MS: '100' },
      watch: ['user.created.v1'],
      define: (config, names) => ({ name: names.name, config, dbSchema: names.schema, logger: names.logger }),
    });
    try {
      const event = await svc.db.transaction((trx) => enqueueEvent(trx, 'user.created.v1', userCreated()));
      // Sent first (the relay's confirm), then gone from the outbox.
      await expect.poll(() => svc.watched.seen.map((s) => s.envelope.id), { timeout: 10_000 }).toContain(event.id);
      await expect.poll(async () => (await svc.db('outbox').where({ id: event.id }).first()) ?? null, { timeout: 10_000 }).toBeNull();
    } finally {
      await svc.stop();
    }
  });
});
