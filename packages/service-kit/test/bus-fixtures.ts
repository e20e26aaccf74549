import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel, type GetMessage } from 'amqplib';
import type { EventData } from '@frametext/contracts';
import { createBus } from '../src/bus/bus.js';
import { busMigrations } from '../src/bus/migrations.js';
import { allQueueNames, declareExchange, type RetryPolicy } from '../src/bus/topology.js';
import type { Bus, BusOptions, Consumer } from '../src/bus/types.js';
import { createDb, migrate, type Knex, type Migration } from '../src/db/index.js';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, TEST_RETRY_POLICY, testLogger, uniqueName } from '../src/testing/index.js';

/** What handlers in these tests do: one row per handled event, written in the handler's transaction. */
const effectsMigration: Migration = {
  name: '0100_test_effects',
  async up(db) {
    await db.schema.createTable('effects', (t) => {
      t.bigIncrements('id');
      t.uuid('message_id').notNullable();
      t.integer('attempt').notNullable();
      t.text('email').notNullable();
    });
  },
};

export interface Effect {
  message_id: string;
  attempt: number;
  email: string;
}

export interface ServiceSchema {
  schema: string;
  db: Knex;
  effects(): Promise<Effect[]>;
}

export function userCreated(email = `${randomUUID().slice(0, 8)}@example.com`): EventData<'user.created.v1'> {
  return { uid: randomUUID(), email, createdAt: new Date().toISOString() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Everything one test creates on the real Postgres and RabbitMQ, with names no concurrent test uses,
 * removed again by cleanup(): buses closed, queues and exchange deleted, schemas dropped.
 */
export class BusWorld {
  readonly exchange = uniqueName('bus_test_ex');
  private readonly schemas: ServiceSchema[] = [];
  private readonly buses: Bus[] = [];
  private readonly services = new Set<string>();
  /** Retry settings of the buses started per service, so cleanup finds their retry queues. */
  private readonly policies = new Map<string, RetryPolicy[]>();
  private admin: ChannelModel | undefined;

  async schema(): Promise<ServiceSchema> {
    const schema = uniqueName('bus_test');
    const db = createDb(TEST_DATABASE_URL, schema, { max: 5 });
    await migrate(db, schema, [...busMigrations, effectsMigration]);
    const s: ServiceSchema = { schema, db, effects: () => db('effects').select('message_id', 'attempt', 'email').orderBy('id') };
    this.schemas.push(s);
    return s;
  }

  serviceName(): string {
    const name = uniqueName('bus_test_svc');
    this.services.add(name);
    return name;
  }

  bus(service: string, at: ServiceSchema, overrides: Partial<BusOptions> = {}): Bus {
    this.services.add(service);
    this.policies.set(service, [...(this.policies.get(service) ?? []), { retryDelayMs: overrides.retryDelayMs ?? 200, maxAttempts: overrides.maxAttempts ?? 3 }]);
    const bus = createBus({
      url: TEST_RABBITMQ_URL,
      exchange: this.exchange,
      service,
      prefetch: 4,
      maxAttempts: 3,
      maxInterruptions: 2,
      retryDelayMs: 200,
      logger: testLogger('bus-test'),
      db: at.db,
      relaySweepMs: 500,
      connectTimeoutMs: 5_000,
      ...overrides,
    });
    this.buses.push(bus);
    return bus;
  }

  async startBus(service: string, at: ServiceSchema, consumers: Consumer[] = [], overrides: Partial<BusOptions> = {}): Promise<Bus> {
    const bus = this.bus(service, at, overrides);
    await bus.start(consumers);
    return bus;
  }

  /** A plain connection of our own, to publish raw bytes and to look into queues. */
  async broker(): Promise<ChannelModel> {
    this.admin ??= await connect(TEST_RABBITMQ_URL);
    return this.admin;
  }

  async publishRaw(routingKey: string, body: string): Promise<void> {
    const connection = await this.broker();
    const ch = await connection.createConfirmChannel();
    await declareExchange({ connection, channel: ch, queues: { type: 'quorum', maxInterruptions: 2 } }, this.exchange);
    ch.publish(this.exchange, routingKey, Buffer.from(body), { persistent: true, contentType: 'application/json' });
    await ch.waitForConfirms();
    await ch.close();
  }

  /** Takes every message now in a queue (acked, so it leaves the queue). */
  async drain(queue: string): Promise<GetMessage[]> {
    const ch = await (await this.broker()).createChannel();
    const out: GetMessage[] = [];
    for (;;) {
      const msg = await ch.get(queue, { noAck: true });
      if (!msg) break;
      out.push(msg);
    }
    await ch.close();
    return out;
  }

  async messageCount(queue: string): Promise<number> {
    const ch = await (await this.broker()).createChannel();
    const { messageCount } = await ch.checkQueue(queue);
    await ch.close();
    return messageCount;
  }

  async cleanup(): Promise<void> {
    await Promise.allSettled(this.buses.map((b) => b.close()));
    const admin = await this.broker().catch(() => undefined);
    if (admin) {
      for (const service of this.services) {
        for (const queue of new Set((this.policies.get(service) ?? [TEST_RETRY_POLICY]).flatMap((p) => allQueueNames(service, p)))) {
          const ch = await admin.createChannel();
          ch.on('error', () => undefined);
          await ch.deleteQueue(queue).catch(() => undefined);
          await ch.close().catch(() => undefined);
        }
      }
      const ch = await admin.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteExchange(this.exchange).catch(() => undefined);
      await ch.deleteExchange(`${this.exchange}.unrouted`).catch(() => undefined);
      await ch.deleteQueue(`${this.exchange}.unrouted`).catch(() => undefined);
      await ch.close().catch(() => undefined);
      await admin.close().catch(() => undefined);
    }
    for (const s of this.schemas) {
      await s.db.raw('drop schema if exists ?? cascade', [s.schema]);
      await s.db.destroy();
    }
  }
}
