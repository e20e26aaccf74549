import knex, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex };

/** One migration, written in code so a service's build carries its migrations with it. */
export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
  /**
   * Runs outside a transaction: `create index concurrently`, which builds an index on a busy table without blocking
   * its writes, cannot run inside one. Such a migration must be safe to run again after failing half way.
   */
  outsideTransaction?: boolean;
}

// int8 (bigint, count(*)) as JS numbers: our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** How a service's pool is sized and named. */
export interface PoolSettings {
  /** Most connections the pool opens: what one replica of the service can take of Postgres' max_connections. */
  max?: number;
  /** Shown in pg_stat_activity.application_name, so an operator (and a test) can count each service's connections. */
  applicationName?: string;
}

/** A knex pool whose search_path is the service's own schema: each service owns its tables. */
export function createDb(url: string, schema: string, pool: PoolSettings = {}): Knex {
  assertSchemaName(schema);
  return knex({
    client: 'pg',
    connection: { connectionString: url, ...(pool.applicationName ? { application_name: pool.applicationName } : {}) },
    searchPath: [schema, 'public'],
    pool: { min: 0, max: pool.max ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

/**
 * Creates the database named in the URL if it does not exist (the first `npm start` on a machine). A database that
 * exists is simply connected to: a service's own role (deploy/postgres/db-setup.sh) may connect to nothing else.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  const connected = await probe.connect().then(
    () => true,
    (err: { code?: string }) => {
      // 3D000: no such database, made below; anything else (a wrong password, no server) is the caller's to see.
      if (err.code !== '3D000') throw err;
      return false;
    },
  );
  if (connected) {
    await probe.end();
    return;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database "${name}"`);
      } catch (err) {
        // Two services starting at once may race to create it.
        if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/** Advisory lock class of migrations (with hashtext(schema)): one replica migrates a schema at a time. */
export const MIGRATION_LOCK_CLASS = 0x4d494752; // "MIGR"

/**
 * Creates the schema and runs the given migrations in order, recording them in the schema's own table.
 *
 * Replicas starting together take turns on a session advisory lock held on a connection of its own (Postgres frees it
 * when that connection dies, so a crash mid-migration leaves no lock behind; knex's lock row, which would, is freed
 * under it). Migrations only add, so an image older than the schema starts: migrations recorded that this build does
 * not know are left alone, which is what a rollback needs.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  assertSchemaName(schema);
  const byName = new Map(migrations.map((m) => [m.name, m]));
  if (byName.size !== migrations.length) throw new Error(`duplicate migration names in schema ${schema}`);
  const lock = new pg.Client((db.client as { config: { connection: pg.ClientConfig } }).config.connection);
  // Losing this connection mid-migration (a database restart) fails the migration's own queries too.
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    // A deployment's setup (deploy/postgres/db-setup.sh) made the schema and gave it to the service's role, which may
    // not create schemas: only a schema that is missing is created (a local install, a test's own schema).
    const found = await db.raw('select 1 from pg_namespace where nspname = ?', [schema]);
    if (found.rows.length === 0) await db.raw('create schema if not exists ??', [schema]);
    const config: Knex.MigratorConfig = {
      schemaName: schema,
      tableName: 'knex_migrations',
      disableMigrationsListValidation: true,
      migrationSource: {
        getMigrations: async () => migrations.map((m) => m.name),
        getMigrationName: (name: string) => name,
        getMigration: async (name: string) => {
          const m = byName.get(name)!;
          return {
            up: (k: Knex) => m.up(k),
            down: (k: Knex) => (m.down ? m.down(k) : Promise.resolve()),
            ...(m.outsideTransaction ? { config: { transaction: false } } : {}),
          };
        },
      },
    };
    if (await db.schema.withSchema(schema).hasTable('knex_migrations_lock')) await db.migrate.forceFreeMigrationsLock(config);
    await db.migrate.latest(config);
  } finally {
    await lock.end();
  }
}

export async function pingDb(db: Knex): Promise<void> {
  await db.raw('select 1');
}
