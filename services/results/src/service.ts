import { errorText, type Logger, type RunningService, type ServiceDefinition, type ServiceDeps } from '@frametext/service-kit';
import type { ResultsConfig } from './config.js';
import { resultsMigrations } from './data/migrations.js';
import type { ResultsContext } from './domain/context.js';
import { makeChargerDemoVideo, seedDemo, type DemoVideoMaker } from './domain/demo.js';
import { purgeStoredFiles, runRetention } from './domain/deletion.js';
import { failStalledUploads } from './domain/watchdog.js';
import { resultsRoutes } from './http/routes.js';
import { webhookRoutes } from './http/webhook-routes.js';
import { videoIntelligenceErrors, videoIntelligenceRoutes } from './http/video-intelligence-routes.js';
import { deliverDueWebhooks, forgetOldDeliveries } from './domain/webhooks.js';
import { RESULTS_CONSUMES, resultsConsumers } from './messaging/consumers.js';
import { registerUploadGauges } from './data/upload-gauges.js';
import { httpUploadServiceClient } from './data/upload-service-client.js';

export interface ResultsServiceOptions {
  /** Service name: also its queue name (tests pass a unique one). */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Makes the demo video; defaults to the charger screen of @frametext/sample-media. */
  makeDemoVideo?: DemoVideoMaker;
  /** Receives the use-case context once built (tests run the scheduled jobs through it). */
  onContext?: (ctx: ResultsContext) => void;
  /** Resolves webhook host names; the system's resolver by default. */
  resolveHost?: ResultsContext['resolveHost'];
}

function contextOf(config: ResultsConfig, deps: ServiceDeps<ResultsConfig>, resolveHost: ResultsContext['resolveHost']): ResultsContext {
  if (!deps.storage) throw new Error('results needs the object store');
  const uploadService = httpUploadServiceClient({ baseUrl: config.UPLOAD_URL, timeoutMs: config.UPLOAD_TIMEOUT_MS, logger: deps.logger, credentials: deps.auth.workloads });
  return { config, db: deps.db, storage: deps.storage, logger: deps.logger, metrics: deps.metrics, uploadService, resolveHost };
}

/** The results service as the kit runs it: consumers, the endpoints, the scheduled jobs (retention, purge, watchdog, webhook delivery) and the demo seed. */
export function resultsService(config: ResultsConfig, opts: ResultsServiceOptions = {}): ServiceDefinition<ResultsConfig> {
  let ctx: ResultsContext | undefined;
  const context = (deps: ServiceDeps<ResultsConfig>) => (ctx ??= contextOf(config, deps, opts.resolveHost));
  return {
    name: opts.name ?? 'results',
    // The upload service answers results by this name, whatever its queue is called.
    role: 'results',
    config,
    dbSchema: opts.dbSchema ?? 'results',
    migrations: resultsMigrations,
    usesStorage: true,
    authenticatesUsers: true,
    logger: opts.logger,
    consumes: RESULTS_CONSUMES,
    consumers: (deps) => resultsConsumers(context(deps)),
    async setup(deps) {
      const c = context(deps);
      deps.app.use('/api', resultsRoutes(c));
      deps.app.use('/api', webhookRoutes(c));
      deps.app.use('/v1', videoIntelligenceRoutes(c), ...videoIntelligenceErrors(c));
      opts.onContext?.(c);
      registerUploadGauges(deps.metrics, c.db);

      // Each job runs on every replica (they lock with SKIP LOCKED).
      deps.schedule({ name: 'retention job', everyMs: config.RETENTION_INTERVAL_MS, atStart: true, run: () => Promise.all([runRetention(c), forgetOldDeliveries(c)]) });
      deps.schedule({ name: 'purge job', everyMs: config.PURGE_INTERVAL_MS, run: () => purgeStoredFiles(c) });
      deps.schedule({ name: 'watchdog', everyMs: config.WATCHDOG_INTERVAL_MS, run: () => failStalledUploads(c) });
      deps.schedule({ name: 'webhook delivery', everyMs: config.WEBHOOK_INTERVAL_MS, run: () => deliverDueWebhooks(c) });

      // Not awaited: readiness does not wait for ffmpeg.
      const seeding = config.DEMO_SEED
        ? seedDemo(c, opts.makeDemoVideo ?? makeChargerDemoVideo).catch((err: unknown) => {
            c.logger.error({ err }, `demo upload not seeded: ${errorText(err)}`);
          })
        : Promise.resolve();
      return async () => {
        await seeding;
      };
    },
  };
}

export type RunningResults = RunningService<ResultsConfig>;
