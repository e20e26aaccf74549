import type { Logger, RunningService, ServiceDefinition } from '@frametext/service-kit';
import type { Config } from './config.js';
import { httpBillingClient, type BillingClient } from './data/billing-client.js';
import { uploadMigrations } from './data/migrations.js';
import { failAbandonedUploads } from './domain/abandoned-uploads.js';
import type { UploadContext } from './domain/context.js';
import { uploadRoutes } from './http/routes.js';

export interface UploadServiceOptions {
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Replaces the HTTP billing client. */
  billing?: BillingClient;
  /** Receives the use-case context once built (tests run the abandoned-upload sweep through it). */
  onContext?: (ctx: UploadContext) => void;
}

/** The upload service as the kit runs it: migrations, the /api upload routes and the abandoned-upload sweep. */
export function uploadService(config: Config, opts: UploadServiceOptions = {}): ServiceDefinition<Config> {
  return {
    name: 'upload',
    config,
    dbSchema: opts.dbSchema,
    migrations: uploadMigrations,
    usesStorage: true,
    consumes: [],
    consumers: () => [],
    logger: opts.logger,
    setup({ app, db, storage, logger }) {
      if (!storage) throw new Error('the upload service needs object storage');
      const ctx: UploadContext = {
        config,
        db,
        storage,
        logger,
        billing: opts.billing ?? httpBillingClient({ baseUrl: config.BILLING_URL, timeoutMs: config.BILLING_TIMEOUT_MS, logger }),
      };
      app.use('/api', uploadRoutes(ctx));
      opts.onContext?.(ctx);

      const timer = setInterval(() => {
        failAbandonedUploads(ctx).catch((err: unknown) => logger.error({ err }, 'abandoned-upload sweep failed'));
      }, config.ABANDONED_SWEEP_INTERVAL_MS);
      timer.unref();
      return async () => clearInterval(timer);
    },
  };
}

export type RunningUpload = RunningService<Config>;
