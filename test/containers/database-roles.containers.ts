// Least privilege in Postgres, in the running stack: each service connects with its own role (docker-compose.yml,
// made by the one-shot db-setup, deploy/postgres/db-setup.sh), which owns its schema and can touch no other. Checked
// from inside each service's container, with the DATABASE_URL it was given and the pg driver of its image: the
// worker that decodes untrusted media (frame-extraction) must not read identity's password hashes.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVICE_REGISTRY } from '@frametext/contracts';
import { containersOf, type Container } from './stack.js';

const podman = (args: string[]) => execFileSync('podman', args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

/** The services that keep a schema, and the schema (packages/service-kit's schemaName). */
const SCHEMA_OF = Object.fromEntries(SERVICE_REGISTRY.filter((s) => s.name !== 'gateway').map((s) => [s.name, s.name.replace(/-/g, '_')]));
const SCHEMAS = Object.values(SCHEMA_OF);

interface Outcome {
  ok: boolean;
  rows?: Record<string, unknown>[];
  code?: string;
  message?: string;
}

/**
 * Runs each statement, one after another on one connection, inside the service's container as the service does: its
 * DATABASE_URL, node and the pg of its image (resolved from service-kit, which depends on it).
 */
function asService(container: Container, statements: string[]): Outcome[] {
  const program = `
    import { createRequire } from 'node:module';
    const pg = createRequire(import.meta.resolve('@frametext/service-kit'))('pg');
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const out = [];
    for (const sql of JSON.parse(process.argv[1])) {
      try {
        out.push({ ok: true, rows: (await client.query(sql)).rows });
      } catch (err) {
        out.push({ ok: false, code: err.code, message: err.message });
      }
    }
    await client.end();
    console.log(JSON.stringify(out));`;
  const text = podman(['exec', '-w', '/app', container.id, 'node', '--input-type=module', '-e', program, JSON.stringify(statements)]);
  return JSON.parse(text.trim().split('\n').pop()!) as Outcome[];
}

/** One statement as the admin, by psql in the Postgres container (its local socket): tab-separated rows. */
function asAdmin(statement: string): string[][] {
  const [postgres] = containersOf('postgres');
  if (!postgres) throw new Error('no running postgres container');
  return podman(['exec', postgres.id, 'psql', '-U', 'frametext', '-d', 'frametext', '-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', statement])
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

const envOf = (container: Container): Record<string, string> =>
  Object.fromEntries((JSON.parse(podman(['inspect', '--format', '{{json .Config.Env}}', container.id])) as string[]).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));

describe('Postgres roles', () => {
  it('the one-shot setup made a login role per service, owning its schema, with no admin rights', () => {
    const roles = asAdmin(
      `select rolname, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolcanlogin from pg_roles where rolname like 'frametext\\_%' order by rolname`,
    );
    expect(roles.map((r) => r[0]).sort()).toEqual(SCHEMAS.map((s) => `frametext_${s}`).sort());
    for (const [name, ...flags] of roles) expect(flags, name).toEqual(['f', 'f', 'f', 'f', 'f', 't']);
    const owners = asAdmin(`select nspname, pg_get_userbyid(nspowner) from pg_namespace where nspname in (${SCHEMAS.map((s) => `'${s}'`).join(', ')}) order by 1`);
    expect(owners).toEqual(SCHEMAS.map((s) => [s, `frametext_${s}`]).sort());
    // Every table the services made is their own role's.
    const foreign = asAdmin(
      `select n.nspname || '.' || c.relname || ' ' || pg_get_userbyid(c.relowner) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in (${SCHEMAS.map((s) => `'${s}'`).join(', ')}) and pg_get_userbyid(c.relowner) <> 'frametext_' || n.nspname`,
    );
    expect(foreign).toEqual([]);
  });

  it('gives no service container the admin password, and each its own role', () => {
    const [postgres] = containersOf('postgres');
    const admin = envOf(postgres!).POSTGRES_PASSWORD!;
    expect(admin.length).toBeGreaterThan(0);
    const passwords = new Set<string>();
    for (const name of SERVICE_REGISTRY.map((s) => s.name)) {
      for (const c of containersOf(name)) {
        const env = envOf(c);
        expect(Object.values(env).some((v) => v.includes(admin)), `${c.name} has the admin password`).toBe(false);
        if (name === 'gateway') {
          expect(env.DATABASE_URL, c.name).toBeUndefined();
          continue;
        }
        const url = new URL(env.DATABASE_URL!);
        expect(url.username, c.name).toBe(`frametext_${SCHEMA_OF[name]}`);
        passwords.add(`${name} ${url.password}`);
      }
    }
    // One password per service (the OCR workers' replicas share theirs), none the same as another's.
    const byService = new Map([...passwords].map((p) => [p.split(' ')[0], p.split(' ')[1]]));
    expect(byService.size).toBe(SCHEMAS.length);
    expect(new Set(byService.values()).size).toBe(SCHEMAS.length);
  });

  it("keeps frame-extraction out of identity's tables (the password hashes) while its own schema works", () => {
    const [worker] = containersOf('frame-extraction');
    const [own, users, signingKeys, createSchema, temp, pub] = asService(worker!, [
      'select current_user as role, count(*)::int as migrations from frame_extraction.knex_migrations',
      'select password_hash from identity.users limit 1',
      'select * from identity.signing_keys limit 1',
      'create schema stolen',
      'create temporary table scratch (a int)',
      'create table public.stolen (a int)',
    ]);
    expect(own).toMatchObject({ ok: true, rows: [{ role: 'frametext_frame_extraction' }] });
    expect((own!.rows![0] as { migrations: number }).migrations).toBeGreaterThan(0);
    for (const [what, outcome] of Object.entries({ users, signingKeys, createSchema, temp, pub })) {
      expect(outcome, what).toMatchObject({ ok: false, code: '42501' });
    }
    expect(users!.message).toMatch(/permission denied for schema identity/);
  });

  it.each(Object.keys(SCHEMA_OF))('lets %s read and write its own schema and no other', (name) => {
    const [container] = containersOf(name);
    expect(container, name).toBeDefined();
    const own = SCHEMA_OF[name]!;
    const others = SCHEMAS.filter((s) => s !== own);
    const outcomes = asService(container!, [
      `select count(*)::int as n from ${own}.knex_migrations`,
      `create table ${own}.role_check (a int)`,
      `drop table ${own}.role_check`,
      ...others.map((s) => `select count(*) from ${s}.knex_migrations`),
    ]);
    expect(outcomes.slice(0, 3).map((o) => o.ok), `${name} in its own schema`).toEqual([true, true, true]);
    outcomes.slice(3).forEach((o, i) => expect(o, `${name} reading ${others[i]}`).toMatchObject({ ok: false, code: '42501' }));
  });
});
