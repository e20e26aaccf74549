import type { Migration } from '../db/index.js';

/** Tables every service that publishes or consumes gets in its own schema, before its own migrations. */
export const busMigrations: Migration[] = [
  {
    name: '0000_kit_outbox_inbox',
    async up(db) {
      await db.schema.createTable('outbox', (t) => {
        t.uuid('id').primary();
        t.string('type', 200).notNullable();
        t.string('routing_key', 255).notNullable();
        t.jsonb('envelope').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('published_at', { useTz: true });
        t.integer('attempts').notNullable().defaultTo(0);
        t.text('last_error');
      });
      await db.raw('create index outbox_unpublished on outbox (created_at) where published_at is null');
      await db.schema.createTable('inbox', (t) => {
        t.uuid('message_id').primary();
        t.string('type', 200).notNullable();
        t.timestamp('handled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  {
    // Rows written in one transaction keep their order (now() is the same for all of them), and every commit
    // that wrote outbox rows wakes the relay: NOTIFY is delivered only after commit.
    name: '0001_kit_outbox_order_and_notify',
    async up(db) {
      await db.raw('alter table outbox alter column created_at set default clock_timestamp()');
      await db.raw(`
        create function outbox_notify() returns trigger language plpgsql as $$
        begin
          perform pg_notify(left('outbox_' || TG_TABLE_SCHEMA, 63), '');
          return null;
        end $$`);
      await db.raw('create trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()');
    },
  },
  {
    // Deliveries that ended without an answer (the worker died: out of memory, killed, evicted), counted per message
    // and attempt, so a message that keeps killing its worker is dead-lettered instead of coming back forever.
    name: '0002_kit_interrupted_deliveries',
    async up(db) {
      await db.schema.createTable('interrupted_deliveries', (t) => {
        t.uuid('message_id').notNullable();
        t.integer('attempt').notNullable();
        t.integer('count').notNullable();
        t.timestamp('first_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['message_id', 'attempt']);
      });
    },
  },
  {
    // The W3C trace context of the span that wrote each event, sent as message headers so one upload is one trace.
    name: '0003_kit_outbox_trace_context',
    async up(db) {
      await db.schema.alterTable('outbox', (t) => t.jsonb('trace_context'));
    },
  },
];

/** The Postgres NOTIFY channel the outbox trigger of `schema` signals (identifiers stop at 63 bytes). */
export function outboxChannel(schema: string): string {
  return `outbox_${schema}`.slice(0, 63);
}
