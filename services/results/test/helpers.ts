import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import type { EventData, EventType } from '@frametext/contracts';
import { buildEnvelope, createBus, createDb, queueNames, startService, type Bus, type Knex } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { configSchema, type ResultsConfig } from '../src/config.js';
import type { ResultsContext } from '../src/domain/context.js';
import { resultsService, type ResultsServiceOptions, type RunningResults } from '../src/service.js';

// Tests read answer bodies field by field and let the assertions say what is wrong.
type Body = any;

export interface Published {
  type: string;
  routingKey: string;
  data: Body;
}

export interface TestResults {
  url: string;
  config: ResultsConfig;
  ctx: ResultsContext;
  db: Knex;
  /** Publishes an event on the test exchange, as the other services would (a fresh message id each time). */
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<string>;
  /** Events seen on the exchange since start, by routing key pattern given at start. */
  published: Published[];
  get(path: string, userId?: string): Promise<{ status: number; body: Body }>;
  post(path: string, body: unknown, userId?: string): Promise<{ status: number; body: Body }>;
  /** Starts another replica on the same schema, queue and exchange. */
  replica(): Promise<RunningResults>;
  stop(): Promise<void>;
}

/** The results service in-process on a schema, queue and exchange of its own, with an fs store in a temp folder. */
export async function startResults(env: Record<string, string> = {}, opts: Pick<ResultsServiceOptions, 'makeDemoVideo'> = {}, watch: string[] = ['upload.processed.v1']): Promise<TestResults> {
  const schema = uniqueName('results_test');
  const name = uniqueName('results_test_svc');
  const dataDir = await mkdtemp(join(tmpdir(), 'results-test-'));
  const base = testBaseConfig({ DATA_DIR: dataDir, STORAGE_DRIVER: 'fs' });
  const config = configSchema.parse({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), PORT: '0', DEMO_SEED: 'false', ...env });

  // Watch the exchange before anything is published.
  const conn: ChannelModel = await connect(TEST_RABBITMQ_URL);
  const channel: Channel = await conn.createChannel();
  await channel.assertExchange(config.BUS_EXCHANGE, 'topic', { durable: true, alternateExchange: `${config.BUS_EXCHANGE}.unrouted` });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const key of watch) await channel.bindQueue(queue, config.BUS_EXCHANGE, key);
  const published: Published[] = [];
  await channel.consume(queue, (msg) => {
    if (!msg) return;
    const envelope = JSON.parse(msg.content.toString()) as { type: string; data: Body };
    published.push({ type: envelope.type, routingKey: msg.fields.routingKey, data: envelope.data });
  }, { noAck: true });

  const stops: (() => Promise<void>)[] = [];
  let ctx: ResultsContext | undefined;
  const boot = async () => {
    const running = await startService(
      resultsService(config, { name, dbSchema: schema, logger: testLogger('results'), onContext: (c) => (ctx ??= c), makeDemoVideo: opts.makeDemoVideo }),
    );
    stops.push(() => running.stop());
    return running;
  };
  const first = await boot();
  const url = `http://127.0.0.1:${first.port}`;

  const publisher: Bus = createBus({
    url: TEST_RABBITMQ_URL,
    exchange: config.BUS_EXCHANGE,
    service: uniqueName('results_test_publisher'),
    prefetch: 1,
    maxAttempts: 1,
    retryDelayMs: 100,
    logger: testLogger('publisher'),
  });
  await publisher.start();
  const db = createDb(TEST_DATABASE_URL, schema, { max: 2 });

  const call = async (method: string, path: string, body: unknown, userId?: string) => {
    const headers: Record<string, string> = {};
    if (userId) headers['x-user-id'] = userId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Body };
  };

  return {
    url,
    config,
    ctx: ctx!,
    db,
    published,
    async publish(type, data) {
      const envelope = buildEnvelope(type, data);
      await publisher.publish(envelope);
      return envelope.id;
    },
    get: (path, userId) => call('GET', path, undefined, userId),
    post: (path, body, userId) => call('POST', path, body, userId),
    replica: boot,
    async stop() {
      await publisher.close();
      for (const stop of stops.reverse()) await stop();
      await conn.close();
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
      await deleteBrokerObjects(config.BUS_EXCHANGE, Object.values(queueNames(name)));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function deleteBrokerObjects(exchange: string, queues: string[]): Promise<void> {
  const conn = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
  try {
    const ch = await conn.createChannel();
    for (const q of queues) await ch.deleteQueue(q);
    await ch.deleteExchange(exchange);
    await ch.deleteQueue(`${exchange}.unrouted`);
    await ch.deleteExchange(`${exchange}.unrouted`);
  } finally {
    await conn.close();
  }
}

export { eventually };
