import type { Logger, RunningService, ServiceDefinition, ServiceDeps } from '@frametext/service-kit';
import type { ResultsConfig } from './config.js';
import { resultsMigrations } from './data/migrations.js';
import type { ResultsContext } from './domain/context.js';
import { makeChargerDemoVideo, seedDemo, type DemoVideoMaker } from './domain/demo.js';
import { runRetention } from './domain/uploads.js';
import { resultsRoutes } from './http/routes.js';
import { RESULTS_CONSUMES, resultsConsumers } from './messaging/consumers.js';

export interface ResultsServiceOptions {
  /** Service name: also its queue name (tests pass a unique one). */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Makes the demo video; defaults to the charger screen of @frametext/sample-media. */
  makeDemoVideo?: DemoVideoMaker;
  /** Receives the use-case context once built (tests run the retention job through it). */
  onContext?: (ctx: ResultsContext) => void;
}

function contextOf(config: ResultsConfig, deps: ServiceDeps<ResultsConfig>): ResultsContext {
  if (!deps.storage) throw new Error('results needs the object store');
  return { config, db: deps.db, storage: deps.storage, logger: deps.logger };
}

/** The results service as the kit runs it: consumers, the endpoints, the retention job and the demo seed. */
export function resultsService(config: ResultsConfig, opts: ResultsServiceOptions = {}): ServiceDefinition<ResultsConfig> {
  let ctx: ResultsContext | undefined;
  const context = (deps: ServiceDeps<ResultsConfig>) => (ctx ??= contextOf(config, deps));
  return {
    name: opts.name ?? 'results',
    config,
    dbSchema: opts.dbSchema ?? 'results',
    migrations: resultsMigrations,
    usesStorage: true,
    logger: opts.logger,
    consumes: RESULTS_CONSUMES,
    consumers: (deps) => resultsConsumers(context(deps)),
    async setup(deps) {
      const c = context(deps);
      deps.app.use('/api', resultsRoutes(c));
      opts.onContext?.(c);

      let retaining: Promise<unknown> = Promise.resolve();
      const retention = () => {
        retaining = runRetention(c).catch((err: unknown) => c.logger.error({ err }, 'retention job failed'));
      };
      const timer = setInterval(retention, config.RETENTION_INTERVAL_MS);
      timer.unref();
      retention();

      // Not awaited: readiness does not wait for ffmpeg.
      const seeding = config.DEMO_SEED
        ? seedDemo(c, opts.makeDemoVideo ?? makeChargerDemoVideo).catch((err: unknown) => {
            c.logger.error({ err }, `demo upload not seeded: ${err instanceof Error ? err.message : String(err)}`);
          })
        : Promise.resolve();
      return async () => {
        clearInterval(timer);
        await Promise.all([seeding, retaining]);
      };
    },
  };
}

export type RunningResults = RunningService<ResultsConfig>;
