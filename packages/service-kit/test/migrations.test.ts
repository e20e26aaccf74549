import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type Knex, type Migration } from '../src/db/index.js';
import { TEST_DATABASE_URL, uniqueName } from '../src/testing/index.js';

const opened: { db: Knex; schema: string }[] = [];
afterAll(async () => {
  for (const { db, schema } of opened) {
    await db.raw('drop schema if exists ?? cascade', [schema]);
    await db.destroy();
  }
});

function freshSchema(): { db: Knex; schema: string } {
  const schema = uniqueName('migrations_test');
  const entry = { db: createDb(TEST_DATABASE_URL, schema, { max: 1 }), schema };
  opened.push(entry);
  return entry;
}

/** A migration that creates a table and writes one row in it: run twice, it would fail. */
const creating = (name: string, table: string): Migration => ({
  name,
  async up(db) {
    await db.schema.createTable(table, (t) => t.integer('n'));
    await db(table).insert({ n: 1 });
  },
});
const v1 = [creating('0001_first', 'first')];
const v2 = [...v1, creating('0002_second', 'second')];

describe('migrations', () => {
  it('let an older build start on a schema a newer build migrated (a rollback)', async () => {
    const { db, schema } = freshSchema();
    await migrate(db, schema, v2);
    await expect(migrate(db, schema, v1)).resolves.toBeUndefined();
    expect(await db('second').count({ n: '*' })).toEqual([{ n: 1 }]);
    // And forward again: nothing runs twice.
    await migrate(db, schema, v2);
    expect(await db('knex_migrations').pluck('name')).toEqual(['0001_first', '0002_second']);
  });

  it('run once when replicas start together', async () => {
    const { schema } = freshSchema();
    const replicas = [0, 1, 2].map(() => createDb(TEST_DATABASE_URL, schema, { max: 1 }));
    try {
      await Promise.all(replicas.map((db) => migrate(db, schema, v2)));
      expect(await replicas[0]!('first').count({ n: '*' })).toEqual([{ n: 1 }]);
      expect(await replicas[0]!('second').count({ n: '*' })).toEqual([{ n: 1 }]);
    } finally {
      await Promise.all(replicas.map((db) => db.destroy()));
    }
  });

  it('are not stopped by the lock of a process that died while it migrated', async () => {
    const { db, schema } = freshSchema();
    await migrate(db, schema, v1);
    // What knex leaves when its process is killed between taking its lock and releasing it.
    await db('knex_migrations_lock').update({ is_locked: 1 });
    await migrate(db, schema, v2);
    expect(await db('second').count({ n: '*' })).toEqual([{ n: 1 }]);
  });
});
