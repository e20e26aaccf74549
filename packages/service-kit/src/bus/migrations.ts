import type { Knex, Migration } from '../db/index.js';

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
    // Rows written in one transaction keep their order (now() is the same for all of them). The NOTIFY woke every
    // replica's relay on every commit; relays no longer LISTEN (each is woken by its own process's commits), and
    // the trigger stays while an image that listens may still be rolled back to.
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
  {
    // The pruning job (bus/pruning.ts) finds sent events and old inbox entries by time. Outboxes that kept every event
    // until now can be large, and their services keep writing while the index is built: see buildIndex.
    name: '0004_kit_pruning_indexes',
    outsideTransaction: true,
    async up(db) {
      await buildIndex(db, 'outbox_published', 'outbox', '(published_at) where published_at is not null');
      await buildIndex(db, 'inbox_handled', 'inbox', '(handled_at)');
    },
  },
];

/**
 * Builds an index of the service's own schema (the connection's search path), safe to run again. On a table with rows
 * it builds concurrently, so writes go on meanwhile; a build that failed half way left an invalid index of that name,
 * which is dropped and built anew. On an empty table (a new schema) a plain build is instant, where a concurrent one
 * would wait for every older transaction of the whole database.
 */
async function buildIndex(db: Knex, name: string, table: string, definition: string): Promise<void> {
  const invalid = await db.raw(
    `select 1 from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
     where c.relname = ? and n.nspname = current_schema() and not i.indisvalid`,
    [name],
  );
  if (invalid.rows.length > 0) await db.raw('drop index concurrently if exists ??', [name]);
  const hasRows = (await db(table).first(db.raw('1'))) !== undefined;
  await db.raw(`create index ${hasRows ? 'concurrently ' : ''}if not exists ?? on ?? ${definition}`, [name, table]);
}
