import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import type { Envelope, EventData, EventType, ReserveCreditsRequest } from '@frametext/contracts';
import { buildEnvelope, createBus, createDb, queueNames, startService, type Bus, type Knex } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { configSchema, type BillingConfig } from '../src/config.js';
import type { BillingContext } from '../src/domain/context.js';
import { ledgerBalance, ledgerOf, type LedgerEntry } from '../src/data/ledger.js';
import { billingService } from '../src/service.js';

// Tests read answer bodies field by field and let the assertions say what is wrong.
type Body = any;

export interface Answer {
  status: number;
  body: Body;
}

export interface TestBilling {
  url: string;
  config: BillingConfig;
  ctx: BillingContext;
  /** The test's own view of the service's schema. */
  db: Knex;
  get(path: string, userId?: string): Promise<Answer>;
  post(path: string, body: unknown, opts?: { raw?: string; contentType?: string }): Promise<Answer>;
  /** Any request, with the headers given as they are (the gateway's x-user-id included). */
  send(method: string, path: string, init?: { body?: string; headers?: Record<string, string>; redirect?: 'follow' | 'manual' }): Promise<Answer & { headers: Headers }>;
  reserve(req: ReserveCreditsRequest): Promise<Answer>;
  /** Publishes an event onto the service's exchange, as another service's relay would. */
  publish<T extends EventType>(envelope: Envelope<EventData<T>>): Promise<void>;
  /** Publishes an event and waits until the service has handled it (its id is in the inbox). */
  deliver<T extends EventType>(type: T, data: EventData<T>): Promise<Envelope<EventData<T>>>;
  waitHandled(envelopeId: string): Promise<void>;
  /** A new user with the free grant already handled. */
  newUser(): Promise<string>;
  balance(userId: string): Promise<number>;
  ledgerBalance(userId: string): Promise<number>;
  ledger(userId: string): Promise<LedgerEntry[]>;
  reservation(uploadId: string): Promise<Record<string, unknown> | undefined>;
  stop(): Promise<void>;
}

export function userCreated(uid = randomUUID()): EventData<'user.created.v1'> {
  return { uid, email: `${uid.slice(0, 8)}@example.com`, createdAt: new Date().toISOString() };
}

export async function startBilling(env: Record<string, string> = {}): Promise<TestBilling> {
  const name = uniqueName('billing_test');
  const base = testBaseConfig();
  const config = configSchema.parse({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), PORT: '0', ...env });
  let ctx: BillingContext | undefined;
  const running = await startService(billingService(config, { name, dbSchema: name, logger: testLogger('billing'), onContext: (c) => (ctx = c) }));
  const url = `http://127.0.0.1:${running.port}`;
  const db = createDb(TEST_DATABASE_URL, name, { max: 2 });
  const publisher: Bus = createBus({
    url: TEST_RABBITMQ_URL,
    exchange: config.BUS_EXCHANGE,
    service: uniqueName('billing_test_publisher'),
    prefetch: 1,
    maxAttempts: 1,
    retryDelayMs: 100,
    logger: testLogger('publisher'),
  });
  await publisher.start([]);

  const call = async (method: string, path: string, init: { body?: string; headers?: Record<string, string>; redirect?: 'follow' | 'manual' } = {}) => {
    const res = await fetch(`${url}${path}`, { method, headers: init.headers, body: init.body, redirect: init.redirect });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const post = (path: string, body: unknown, opts: { raw?: string; contentType?: string } = {}) =>
    call('POST', path, { body: opts.raw ?? JSON.stringify(body), headers: { 'content-type': opts.contentType ?? 'application/json' } });

  const waitHandled = async (envelopeId: string) => {
    await eventually(() => db('inbox').where({ message_id: envelopeId }).first(), 10_000);
  };
  const publish = async <T extends EventType>(envelope: Envelope<EventData<T>>) => publisher.publish(envelope as Envelope);
  const deliver = async <T extends EventType>(type: T, data: EventData<T>) => {
    const envelope = buildEnvelope(type, data);
    await publish(envelope);
    await waitHandled(envelope.id);
    return envelope;
  };

  return {
    url,
    config,
    ctx: ctx!,
    db,
    get: (path, userId) => call('GET', path, { headers: userId ? { 'x-user-id': userId } : {} }),
    post,
    send: call,
    reserve: (req) => post('/internal/credits/reserve', req),
    publish,
    deliver,
    waitHandled,
    async newUser() {
      const user = userCreated();
      await deliver('user.created.v1', user);
      return user.uid;
    },
    async balance(userId) {
      const row = await db('accounts').where({ user_id: userId }).first('balance');
      return row ? Number(row.balance) : 0;
    },
    ledgerBalance: (userId) => ledgerBalance(db, userId),
    ledger: (userId) => ledgerOf(db, userId),
    reservation: (uploadId) => db('reservations').where({ upload_id: uploadId }).first(),
    async stop() {
      await publisher.close();
      await running.stop();
      await db.raw('drop schema if exists ?? cascade', [name]);
      await db.destroy();
      await deleteBrokerObjects(config.BUS_EXCHANGE, Object.values(queueNames(name)));
    },
  };
}

async function deleteBrokerObjects(exchange: string, queues: string[]): Promise<void> {
  const conn = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
  try {
    const ch = await conn.createChannel();
    for (const q of [...queues, `${exchange}.unrouted`]) await ch.deleteQueue(q);
    await ch.deleteExchange(exchange);
    await ch.deleteExchange(`${exchange}.unrouted`);
  } finally {
    await conn.close();
  }
}
