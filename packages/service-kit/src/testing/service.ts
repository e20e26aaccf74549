import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Envelope, EventData, EventType } from '@frametext/contracts';
import { parseConfig, type BaseConfig } from '../config/index.js';
import { createDb, type Knex } from '../db/index.js';
import type { Logger } from '../logging/logger.js';
import { startService, type RunningService, type ServiceDefinition } from '../runtime.js';
import { createStorage } from '../storage/index.js';
import type { ObjectStorage } from '../storage/types.js';
import { TEST_DATABASE_URL, dropSchemas, eventually, testEnv, testLogger, uniqueName } from './basics.js';
import { deleteBrokerObjects, startPublisher, watchExchange, type ExchangeWatch, type TestPublisher } from './broker.js';
import { toAnswer, type Answer } from './http.js';
import { startTestIssuer, workloadTokenFor, type TestIssuer } from './tokens.js';

/** The names a service under test runs under: its queue (service name), its schema, its logger. */
export interface TestNames {
  name: string;
  schema: string;
  logger: Logger;
}

export interface TestServiceSpec<C extends BaseConfig & { PORT: number }> {
  /** The service's role (`billing`): the prefix of its unique names. */
  role: string;
  configSchema: z.ZodType<C>;
  /** The service's definition for its parsed settings and its test names. */
  define(config: C, names: TestNames): ServiceDefinition<C>;
  /** Settings on top of the test defaults. */
  env?: Record<string, string>;
  /** Routing-key patterns to watch on the exchange (events the service publishes). */
  watch?: string[];
}

export interface RequestOptions {
  /** Sends an access token for this user (signed by the test issuer). */
  user?: string;
  /** Sends this Authorization bearer token as it is. */
  token?: string;
  /** Sends a workload token from this caller (`upload`) to this service's role. */
  workload?: string;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is, instead of `body`. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  redirect?: 'follow' | 'manual';
}

export interface ServiceUnderTest<C extends BaseConfig & { PORT: number }> {
  url: string;
  config: C;
  names: TestNames;
  /** DATA_DIR of the service (removed at stop). */
  dataDir: string;
  running: RunningService<C>;
  /** The test's own view of the service's schema. */
  db: Knex;
  /** The service's object store (the fs driver under dataDir unless the settings say otherwise). */
  storage: ObjectStorage;
  issuer: TestIssuer;
  request(method: string, path: string, opts?: RequestOptions): Promise<Answer>;
  get(path: string, opts?: Omit<RequestOptions, 'body'>): Promise<Answer>;
  post(path: string, body: unknown, opts?: Omit<RequestOptions, 'body'>): Promise<Answer>;
  /** Publishes an event on the service's exchange, as another service's relay would. */
  publish<T extends EventType>(type: T, data: EventData<T>, opts?: { routingKey?: string; times?: number }): Promise<Envelope<EventData<T>>>;
  /** Publishes an envelope as it is (the same id again is what a redelivery looks like). */
  publishEnvelope(envelope: Envelope, routingKey?: string): Promise<void>;
  /** Publishes an event and waits until the service has handled it (its id is in the inbox). */
  deliver<T extends EventType>(type: T, data: EventData<T>, opts?: { routingKey?: string }): Promise<Envelope<EventData<T>>>;
  waitHandled(envelopeId: string, timeoutMs?: number): Promise<void>;
  /** Events seen on the exchange, by the `watch` patterns. */
  watched: ExchangeWatch;
  /** Events the service wrote to its outbox, oldest first. */
  outbox(): Promise<{ type: string; data: Answer['body'] }[]>;
  /** Starts another replica on the same settings, schema and queue. */
  replica(): Promise<RunningService<C>>;
  stop(): Promise<void>;
}

/** An event a service wrote to its outbox. */
export interface WrittenEvent {
  /** The envelope's id: the same on every copy the relay sends of it. */
  id: string;
  type: string;
  data: Answer['body'];
}

/**
 * Waits until the service whose schema `db` reads has handled every message of `messageIds` (their ids are in its
 * inbox) and its relays have sent every event written so far (no outbox row is left unpublished), then answers its
 * outbox, oldest first. From then on those messages cause nothing more: a redelivery finds them in the inbox, and
 * whatever they caused is in the outbox and sent. A test that shows something happened once shows it by this state,
 * not by waiting a while for a duplicate.
 */
export async function settledOutbox(db: Knex, messageIds: readonly string[], timeoutMs = 30_000): Promise<WrittenEvent[]> {
  const wanted = [...new Set(messageIds)];
  await eventually(
    async () => {
      const [handled] = await db('inbox').whereIn('message_id', wanted).count({ n: '*' });
      if (Number(handled?.n) < wanted.length) return false;
      const [unsent] = await db('outbox').whereNull('published_at').count({ n: '*' });
      return Number(unsent?.n) === 0;
    },
    timeoutMs,
    50,
    `${wanted.length} messages handled and their events sent`,
  );
  const rows: { id: string; type: string; envelope: Envelope }[] = await db('outbox').select('id', 'type', 'envelope').orderBy('created_at');
  return rows.map((r) => ({ id: r.id, type: r.type, data: r.envelope.data }));
}

/** What a test file's services run in: their settings and names, a store, a watcher and a publisher on their exchange. */
export interface TestWorld<C extends BaseConfig> {
  config: C;
  /** The settings as environment variables (for a service started as a child process). */
  env: Record<string, string>;
  names: TestNames;
  /** DATA_DIR (removed at cleanup). */
  dataDir: string;
  /** The object store (the fs driver under dataDir unless the settings say otherwise). */
  storage: ObjectStorage;
  issuer: TestIssuer;
  /** Events seen on the exchange, by the `watch` patterns. */
  watched: ExchangeWatch;
  publisher: TestPublisher;
  /** Removes the world: its queue, exchange, schema, data folder. Stop its services first. */
  cleanup(): Promise<void>;
}

/**
 * A private world for one test file: a unique exchange, queue name and schema, a data folder, a test issuer standing
 * in for identity's keys and feed, and a watcher and publisher on the exchange. Tests that start their workers
 * themselves (as child processes they can kill) use it directly; `startTestService` runs a service in one.
 */
export async function startTestWorld<C extends BaseConfig>(spec: Pick<TestServiceSpec<C & { PORT: number }>, 'role' | 'env' | 'watch'> & { configSchema: z.ZodType<C> }): Promise<TestWorld<C>> {
  const issuer = await startTestIssuer();
  const dataDir = await mkdtemp(join(tmpdir(), `${spec.role}-test-`));
  const env = testEnv({ DATA_DIR: dataDir, STORAGE_FS_ROOT: join(dataDir, 'objects'), ...issuer.env, ...spec.env });
  const config = parseConfig(spec.configSchema, env);
  const unique = uniqueName(spec.role.replace(/-/g, '_'));
  const names: TestNames = { name: `${unique}_svc`, schema: unique, logger: testLogger(spec.role) };
  const storage = createStorage(config);
  await storage.ensureReady();
  const watched = await watchExchange(config.BUS_EXCHANGE, spec.watch ?? []);
  const publisher = await startPublisher(config.BUS_EXCHANGE);
  return {
    config,
    env,
    names,
    dataDir,
    storage,
    issuer,
    watched,
    publisher,
    async cleanup() {
      await publisher.close();
      await watched.close();
      await dropSchemas(names.schema);
      await deleteBrokerObjects(config.BUS_EXCHANGE, [names.name]);
      await rm(dataDir, { recursive: true, force: true });
      await issuer.stop();
    },
  };
}

/**
 * Runs a service in-process on the real Postgres and RabbitMQ, in a world of its own (startTestWorld).
 */
export async function startTestService<C extends BaseConfig & { PORT: number }>(spec: TestServiceSpec<C>): Promise<ServiceUnderTest<C>> {
  const world = await startTestWorld(spec);
  const { config, names, issuer, publisher } = world;
  const replicas: RunningService<C>[] = [];
  const boot = async () => {
    const r = await startService(spec.define(config, names));
    replicas.push(r);
    return r;
  };
  const running = await boot();
  const url = `http://127.0.0.1:${running.port}`;
  const db = createDb(TEST_DATABASE_URL, names.schema, { max: 2 });

  const request: ServiceUnderTest<C>['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.user) headers.authorization = `Bearer ${issuer.tokenFor(opts.user)}`;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.workload) Object.assign(headers, workloadTokenFor(opts.workload, spec.role));
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = opts.contentType ?? 'application/json';
    return toAnswer(await fetch(`${url}${path}`, { method, headers, body: payload, redirect: opts.redirect }));
  };
  const waitHandled = async (envelopeId: string, timeoutMs = 10_000) => {
    await eventually(() => db('inbox').where({ message_id: envelopeId }).first(), timeoutMs);
  };

  return {
    url,
    config,
    names,
    dataDir: world.dataDir,
    running,
    db,
    storage: world.storage,
    issuer,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    publish: (type, data, opts) => publisher.publish(type, data, opts),
    publishEnvelope: (envelope, routingKey) => publisher.publishEnvelope(envelope, routingKey),
    async deliver(type, data, opts) {
      const envelope = await publisher.publish(type, data, opts);
      await waitHandled(envelope.id);
      return envelope;
    },
    waitHandled,
    watched: world.watched,
    async outbox() {
      const rows = await db('outbox').select('type', 'envelope').orderBy('created_at');
      return rows.map((r: { type: string; envelope: Envelope }) => ({ type: r.type, data: r.envelope.data }));
    },
    replica: boot,
    async stop() {
      for (const r of replicas.reverse()) await r.stop();
      await db.destroy();
      await world.cleanup();
    },
  };
}
