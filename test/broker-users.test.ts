// The broker's users (deploy/rabbitmq/broker-users.sh), loaded into a vhost of the machine's RabbitMQ as the stack
// loads them: each service works as its own user, and may touch nothing of the others'.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_REGISTRY } from '@frametext/contracts';
import { buildEnvelope, busMigrations, createBus, createDb, migrate, on, type Bus, type Knex } from '@frametext/service-kit';
import { eventually, TEST_DATABASE_URL, testLogger, uniqueName } from '@frametext/service-kit/testing';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPT = path.join(ROOT, 'deploy/rabbitmq/broker-users.sh');
const EXCHANGE = 'frametext.events';
const VHOST = uniqueName('broker_users');
const ADMIN = `frametext-test-admin-${process.pid}`;
const SERVICES = SERVICE_REGISTRY.filter((s) => s.name !== 'gateway').map((s) => s.name);
const passwords = new Map<string, string>(SERVICES.map((s) => [s, randomBytes(16).toString('hex')]));
const urlOf = (service: string) => `amqp://frametext-${service}:${passwords.get(service)}@127.0.0.1:5672/${encodeURIComponent(VHOST)}`;
const rabbitmqctl = (...args: string[]) => execFileSync('rabbitmqctl', ['-q', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

let dir: string;
const buses: Bus[] = [];
const dbs: { db: Knex; schema: string }[] = [];

async function serviceBus(service: string, consumers: Parameters<Bus['start']>[0] = []): Promise<{ bus: Bus; db: Knex }> {
  const schema = uniqueName('broker_users');
  const db = createDb(TEST_DATABASE_URL, schema, { max: 3 });
  dbs.push({ db, schema });
  await migrate(db, schema, busMigrations);
  await db.schema.withSchema(schema).createTable('seen', (t) => {
    t.uuid('id').primary();
    t.integer('attempt').notNullable();
  });
  const bus = createBus({ url: urlOf(service), exchange: EXCHANGE, service, prefetch: 4, maxAttempts: 3, maxInterruptions: 2, retryDelayMs: 100, logger: testLogger(service), db, relaySweepMs: 500, connectTimeoutMs: 5_000 });
  buses.push(bus);
  await bus.start(consumers);
  return { bus, db };
}

/** What the broker answers `attempt` on a fresh channel of `service`'s own connection: 'ok' or its refusal. */
async function asService(service: string, attempt: (connection: ChannelModel) => Promise<unknown>): Promise<string> {
  const connection = await connect(urlOf(service));
  connection.on('error', () => undefined);
  try {
    await attempt(connection);
    return 'ok';
  } catch (err) {
    return String(err);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Publishes on a confirm channel: the broker closes the channel of a refused publish, with the reason. */
async function publish(connection: ChannelModel, exchange: string, routingKey: string): Promise<void> {
  const channel = await connection.createConfirmChannel();
  const refusal = new Promise<never>((_, reject) => channel.on('error', reject));
  channel.publish(exchange, routingKey, Buffer.from('{}'));
  await channel.waitForConfirms().catch(() => refusal);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'broker-users-'));
  const definitions = path.join(dir, 'definitions.json');
  const urls = Object.fromEntries(SERVICES.map((s) => [`RABBITMQ_URL_${s.toUpperCase().replace(/-/g, '_')}`, urlOf(s)]));
  execFileSync('bash', [SCRIPT], { env: { PATH: process.env.PATH, RABBITMQ_DEFAULT_USER: ADMIN, RABBITMQ_DEFAULT_PASS: randomBytes(16).toString('hex'), BROKER_VHOST: VHOST, BROKER_DEFINITIONS: definitions, ...urls } });
  rabbitmqctl('import_definitions', definitions);
  // The import runs on after the command returns: every user can log in once it is done.
  await eventually(async () => (await Promise.all(SERVICES.map((s) => asService(s, async () => undefined)))).every((r) => r === 'ok'), 30_000, 200, 'every service user can log in');
});

afterAll(async () => {
  await Promise.allSettled(buses.map((b) => b.close()));
  for (const { db, schema } of dbs) {
    await db.raw('drop schema if exists ?? cascade', [schema]);
    await db.destroy();
  }
  rabbitmqctl('delete_vhost', VHOST);
  for (const user of [ADMIN, ...SERVICES.map((s) => `frametext-${s}`)]) rabbitmqctl('delete_user', user);
  rmSync(dir, { recursive: true, force: true });
});

describe('broker users', () => {
  it('writes a user per service with rights on its own queues and events, and the admin with every right', () => {
    const written = JSON.parse(readFileSync(path.join(dir, 'definitions.json'), 'utf8')) as { users: { name: string; tags: string[] }[]; topic_permissions: { user: string; write: string; read: string }[] };
    expect(written.users.map((u) => u.name)).toEqual([ADMIN, ...SERVICES.map((s) => `frametext-${s}`)]);
    expect(written.users.filter((u) => u.tags.length > 0).map((u) => u.name)).toEqual([ADMIN]);
    // The script's own list of who sends and takes what is the registry's.
    for (const entry of SERVICE_REGISTRY.filter((s) => s.name !== 'gateway')) {
      const topic = written.topic_permissions.find((t) => t.user === `frametext-${entry.name}`)!;
      for (const type of entry.publishes) expect(new RegExp(topic.write).test(type), `${entry.name} sends ${type}`).toBe(true);
      for (const type of entry.consumes) expect(new RegExp(topic.read).test(type), `${entry.name} takes ${type}`).toBe(true);
      const others = [...new Set(SERVICE_REGISTRY.flatMap((s) => [...s.publishes, ...s.consumes]))];
      expect(others.filter((t) => new RegExp(topic.write).test(t)).sort()).toEqual([...new Set(entry.publishes)].sort());
      expect(others.filter((t) => new RegExp(topic.read).test(t)).sort()).toEqual([...new Set(entry.consumes)].sort());
    }
  });

  it('lets each service declare its queues, send its events, take its own and retry a failed one, as its own user', async () => {
    const billing = await serviceBus('billing', [
      on('user.created.v1', async (event, { trx, attempt }) => {
        if (attempt === 1) throw new Error('the first try fails, so the message goes round the retry queue');
        await trx('seen').insert({ id: event.id, attempt });
      }),
    ]);
    const others = new Map<string, Bus>();
    for (const entry of SERVICE_REGISTRY.filter((s) => s.name !== 'gateway' && s.name !== 'billing')) {
      others.set(entry.name, (await serviceBus(entry.name, entry.consumes.map((type) => on(type, async () => undefined)))).bus);
    }
    const event = buildEnvelope('user.created.v1', { uid: randomUUID(), email: 'someone@example.com', createdAt: new Date().toISOString() });
    await others.get('identity')!.publish(event);
    await eventually(async () => (await billing.db('seen').where({ id: event.id })).length === 1);
    expect(await billing.db('seen').where({ id: event.id }).first()).toMatchObject({ attempt: 2 });
    // A queue of another service can be counted (which engines run), without a right on it.
    expect((await billing.bus.queueStats('ocr-tesseract')).consumers).toBe(1);
  });

  it('refuses a service what is another\'s: their events, their queues, the default exchange', async () => {
    const refused = /ACCESS_REFUSED|403/;
    // A worker that reads hostile media cannot forge the events that move uploads and money.
    expect(await asService('ocr-tesseract', (c) => publish(c, EXCHANGE, 'upload.processed.v1'))).toMatch(refused);
    expect(await asService('ocr-tesseract', (c) => publish(c, EXCHANGE, 'frames.extracted.v1'))).toMatch(refused);
    expect(await asService('ocr-tesseract', (c) => publish(c, '', 'results'))).toMatch(refused);
    expect(await asService('ocr-tesseract', (c) => publish(c, 'results.requeue', 'results'))).toMatch(refused);
    // Nor read or reroute what others are sent.
    expect(await asService('ocr-tesseract', async (c) => (await c.createChannel()).get('billing'))).toMatch(refused);
    expect(await asService('ocr-tesseract', async (c) => (await c.createChannel()).bindQueue('ocr-tesseract', EXCHANGE, 'upload.processed.v1'))).toMatch(refused);
    expect(await asService('ocr-tesseract', async (c) => (await c.createChannel()).assertQueue('results.copy', { durable: true }))).toMatch(refused);
    expect(await asService('ocr-tesseract', async (c) => (await c.createChannel()).deleteQueue('results'))).toMatch(refused);
    // What it is allowed still works on the same terms.
    expect(await asService('ocr-tesseract', (c) => publish(c, EXCHANGE, 'ocr.completed.v1'))).toBe('ok');
  });
});
