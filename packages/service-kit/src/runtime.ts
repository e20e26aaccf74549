import type { Tracer } from '@opentelemetry/api';
import type { Express } from 'express';
import { accessTokenSettings, revocationsUrl, serverTimeouts, tracingSettings, type BaseConfig } from './config/index.js';
import { createAccessTokenVerifier } from './auth/access-tokens.js';
import { httpRevocationSource, RevokedSessions, type RevocationSource } from './auth/revocations.js';
import { attachAuth, type ServiceAuth } from './auth/requests.js';
import { WorkloadCredentials } from './auth/workload.js';
import { createDb, ensureDatabase, migrate, pingDb, type Knex, type Migration } from './db/index.js';
import { createLogger, type Logger } from './logging/logger.js';
import { createHttpApp, finishHttpApp, listen, type ReadinessCheck, type RunningServer } from './http/app.js';
import { busMigrations } from './bus/migrations.js';
import { messageRetention, pruneDeliveredMessages } from './bus/pruning.js';
import { JobScheduler, type JobHandle, type ScheduledJob } from './jobs/scheduled-jobs.js';
import { assertConsumers, createBus } from './bus/bus.js';
import type { Bus, Consumer } from './bus/types.js';
import { createStorage } from './storage/index.js';
import type { ObjectStorage } from './storage/types.js';
import type { EventType } from '@frametext/contracts';
import { registerServiceGauges } from './metrics/collectors.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics/definitions.js';
import { metricsPort, serveMetrics, type MetricsServer } from './metrics/server.js';
import { startTracing } from './tracing/tracing.js';
import { errorText } from './errors/index.js';

export interface ServiceDeps<C extends BaseConfig> {
  config: C;
  logger: Logger;
  db: Knex;
  bus: Bus;
  storage: ObjectStorage | undefined;
  app: Express;
  /** Checks callers: users by their own access token, services by their workload token; and mints this service's. */
  auth: ServiceAuth;
  /** The process's Prometheus metrics: the kit records HTTP, bus, outbox, queue and pool figures; services add theirs. */
  metrics: ServiceMetrics;
  /** The service's tracer, for spans of its own inside the request or message spans the kit opens. */
  tracer: Tracer;
  /** Runs work again and again (JobScheduler: no overlap, logged and measured, awaited on stop). */
  schedule(job: ScheduledJob): JobHandle;
}

export interface ServiceDefinition<C extends BaseConfig & { PORT: number }> {
  /** Service name: its log name, its queue name and (with - as _) its Postgres schema. */
  name: string;
  /** Who the service is when it calls another (its workload tokens' `sub`); defaults to `name`. Tests rename queues, not roles. */
  role?: string;
  config: C;
  /** Postgres schema; defaults to the name. Tests pass a unique one. */
  dbSchema?: string;
  migrations?: Migration[];
  /** Events this service consumes; each must have exactly one consumer below, or the service refuses to start. */
  consumes?: EventType[];
  consumers?: (deps: ServiceDeps<C>) => Consumer[];
  /** Whether the service reads or writes the object store. */
  usesStorage?: boolean;
  /** Names the readiness checks beyond Postgres, RabbitMQ and storage. */
  readiness?: (deps: ServiceDeps<C>) => Record<string, ReadinessCheck>;
  /** Registers routes (before the 404 and error handlers) and returns an optional stop hook. */
  setup?: (deps: ServiceDeps<C>) => Promise<void | (() => Promise<void>)> | void | (() => Promise<void>);
  /** The service has signed-in routes: it verifies users' access tokens itself (requireUserId) and follows ended sessions. */
  authenticatesUsers?: boolean;
  /** Where ended sessions are read from, when not identity's feed over HTTP (identity reads its own table). */
  revocations?: (deps: ServiceDeps<C>) => RevocationSource;
  /** Paths whose raw body the service reads itself (webhooks). */
  rawBodyPaths?: string[];
  logger?: Logger;
}

export interface RunningService<C extends BaseConfig> {
  port: number;
  /** Where `GET /metrics` answers; undefined with METRICS_PORT=off. */
  metricsPort: number | undefined;
  deps: ServiceDeps<C>;
  /** Graceful stop: readiness turns 503, HTTP stops taking requests and finishes those in hand, consumers finish, connections close. */
  stop(): Promise<void>;
}

export function schemaName(service: string): string {
  return service.replace(/-/g, '_');
}

/** Boots a service: database and migrations, storage, bus (relay and consumers), HTTP with health. */
export async function startService<C extends BaseConfig & { PORT: number }>(def: ServiceDefinition<C>): Promise<RunningService<C>> {
  const { config } = def;
  const logger = def.logger ?? createLogger(def.name, config.LOG_LEVEL);
  const schema = def.dbSchema ?? schemaName(def.name);

  await ensureDatabase(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, schema, { max: config.DB_POOL_MAX, applicationName: def.name });
  await migrate(db, schema, [...busMigrations, ...(def.migrations ?? [])]);

  const storage = def.usesStorage ? createStorage(config) : undefined;
  if (storage) await storage.ensureReady();

  const metrics = createServiceMetrics(def.name);
  const tracing = startTracing(def.name, tracingSettings(config));
  const { tracer } = tracing;
  const bus = createBus({
    url: config.RABBITMQ_URL,
    exchange: config.BUS_EXCHANGE,
    service: def.name,
    prefetch: config.BUS_PREFETCH,
    maxAttempts: config.BUS_MAX_ATTEMPTS,
    maxInterruptions: config.BUS_MAX_INTERRUPTIONS,
    queueType: config.BUS_QUEUE_TYPE,
    retryDelayMs: config.BUS_RETRY_DELAY_MS,
    logger,
    db,
    metrics,
    tracer,
  });

  const http = createHttpApp({ name: def.name, logger, bodyLimit: config.HTTP_BODY_LIMIT, rawBodyPaths: def.rawBodyPaths, metrics, tracer });
  const auth: ServiceAuth = { workloads: new WorkloadCredentials(config.SERVICE_TOKEN_SECRET, def.role ?? def.name) };
  const jobs = new JobScheduler(logger, metrics);
  const deps: ServiceDeps<C> = { config, logger, db, bus, storage, app: http.app, auth, metrics, tracer, schedule: (job) => jobs.schedule(job) };
  const revoked = def.authenticatesUsers ? revokedSessionsFor(def, deps) : undefined;
  if (def.authenticatesUsers) auth.users = createAccessTokenVerifier(accessTokenSettings(config), revoked);
  attachAuth(http.app, auth);

  const consumers = def.consumers?.(deps) ?? [];
  assertConsumers(def.name, def.consumes ?? [], consumers);
  registerServiceGauges(metrics, { db, bus, service: def.name, consumes: consumers.length > 0, urgent: consumers.some((c) => c.urgent) });

  // Ready means the service's requests can be served: they need Postgres (and the list of ended sessions to trust a
  // token), not the broker (events wait in the outbox) nor the object store (URLs are signed, not fetched), so a
  // broker restart leaves log-in and results up. Those two are reported beside.
  const readiness: Record<string, ReadinessCheck> = {
    postgres: () => pingDb(db),
    ...(revoked ? { revocations: () => revoked.check() } : {}),
    ...(def.readiness?.(deps) ?? {}),
  };
  // Health routes read the checks lazily, so they can be added after the app is created.
  Object.assign(http.readiness, readiness);
  Object.assign(http.reported, { rabbitmq: () => bus.ping(), ...(storage ? { storage: () => storage.ping() } : {}) });

  const stopHook = (await def.setup?.(deps)) ?? undefined;
  finishHttpApp(http.app, logger);

  await bus.start(consumers);
  let server: RunningServer | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    server = await listen(http.app, config.PORT, config.HOST, serverTimeouts(config));
    const port = metricsPort(config.METRICS_PORT, config.PORT);
    if (port !== 'off') metricsServer = await serveMetrics(metrics.registry, port, config.HOST);
  } catch (err) {
    await server?.close();
    await bus.close();
    await jobs.stop();
    await db.destroy();
    await tracing.shutdown();
    throw err;
  }
  const api = server;
  revoked?.start();
  // Sent events and old inbox entries go (bus/pruning.ts); every replica prunes, SKIP LOCKED shares the rows.
  jobs.schedule({ name: 'outbox and inbox pruning', everyMs: config.MESSAGE_PRUNE_INTERVAL_MS, run: () => pruneDeliveredMessages(db, messageRetention(config)) });
  logger.info({ host: config.HOST, port: api.port, metricsPort: metricsServer?.port, schema }, `${def.name} ready`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      http.setDraining();
      await api.close();
      await metricsServer?.close();
      await revoked?.stop();
      await bus.close();
      await jobs.stop();
      if (stopHook) await stopHook();
      await db.destroy();
      await tracing.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not send the last spans'));
      logger.info(`${def.name} stopped`);
    })());

  return { port: api.port, metricsPort: metricsServer?.port, deps, stop };
}

/** The ended sessions a service with signed-in routes follows: its own source, identity's feed, or none when turned off. */
function revokedSessionsFor<C extends BaseConfig & { PORT: number }>(def: ServiceDefinition<C>, deps: ServiceDeps<C>): RevokedSessions | undefined {
  const url = revocationsUrl(deps.config);
  const source = def.revocations?.(deps) ?? (url ? httpRevocationSource(url, deps.auth.workloads) : undefined);
  return source ? new RevokedSessions(source, deps.config.REVOCATIONS_POLL_MS, deps.logger) : undefined;
}

/** Entry point of a service process: start, then stop gracefully on SIGTERM or SIGINT within the shutdown timeout. */
export async function runMain<C extends BaseConfig & { PORT: number }>(def: ServiceDefinition<C>): Promise<void> {
  const logger = def.logger ?? createLogger(def.name, def.config.LOG_LEVEL);
  let running: RunningService<C>;
  try {
    running = await startService({ ...def, logger });
  } catch (err) {
    logger.fatal({ err }, `${def.name} failed to start: ${errorText(err)}`);
    process.exit(1);
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, def.config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
