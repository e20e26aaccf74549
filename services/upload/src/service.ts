import { engineAvailability, type Logger, type RunningService, type ServiceDefinition } from '@frametext/service-kit';
import type { Config } from './config.js';
import { httpBillingClient, type BillingClient } from './data/billing-client.js';
import { uploadMigrations } from './data/migrations.js';
import { failAbandonedUploads } from './domain/abandoned-uploads.js';
import type { UploadContext } from './domain/context.js';
import { sweepOriginals } from './domain/sweep-originals.js';
import { cancelUnfinishedStarts } from './domain/unfinished-starts.js';
import { failSilentFetches } from './domain/video-link.js';
import { LinkFetches } from './links/link-fetches.js';
import { internalRoutes, uploadRoutes } from './http/routes.js';
import { ANNOTATE_PATH, videoIntelligenceErrors, videoIntelligenceRoutes } from './http/video-intelligence-routes.js';
import { UPLOAD_CONSUMES, uploadConsumers } from './messaging/consumers.js';

export interface UploadServiceOptions {
  /** Service name: its queue (tests pass a unique one). */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Replaces the HTTP billing client. */
  billing?: BillingClient;
  /** Receives the use-case context once built (tests run the sweeps through it). */
  onContext?: (ctx: UploadContext) => void;
}

/** The upload service as the kit runs it: migrations, the /api upload routes, and its sweeps (abandoned uploads, unfinished starts, presigned keys). */
export function uploadService(config: Config, opts: UploadServiceOptions = {}): ServiceDefinition<Config> {
  return {
    name: opts.name ?? 'upload',
    // billing accepts credit holds from the upload service by this name, whatever its queue is called.
    role: 'upload',
    config,
    dbSchema: opts.dbSchema,
    migrations: uploadMigrations,
    usesStorage: true,
    rawBodyPaths: [ANNOTATE_PATH],
    consumes: UPLOAD_CONSUMES,
    consumers: ({ storage, logger }) => {
      if (!storage) throw new Error('the upload service needs object storage');
      return uploadConsumers({ storage, logger });
    },
    logger: opts.logger,
    authenticatesUsers: true,
    setup({ app, db, storage, logger, auth, bus, schedule }) {
      if (!storage) throw new Error('the upload service needs object storage');
      const ctx: UploadContext = {
        config,
        db,
        storage,
        logger,
        billing: opts.billing ?? httpBillingClient({ baseUrl: config.BILLING_URL, timeoutMs: config.BILLING_TIMEOUT_MS, logger, credentials: auth.workloads }),
        engines: engineAvailability({ queueConsumers: async (q) => (await bus.queueStats(q)).consumers, cloudQueue: config.OCR_CLOUD_QUEUE }),
        links: new LinkFetches(config.VIDEO_LINK_CONCURRENCY),
      };
      app.use('/api', uploadRoutes(ctx));
      app.use('/internal', internalRoutes(ctx));
      app.use('/v1', videoIntelligenceRoutes(ctx), ...videoIntelligenceErrors(ctx));
      opts.onContext?.(ctx);

      schedule({ name: 'abandoned-upload sweep', everyMs: config.ABANDONED_SWEEP_INTERVAL_MS, run: () => failAbandonedUploads(ctx) });
      schedule({ name: 'unfinished-start sweep', everyMs: config.UNFINISHED_START_SWEEP_INTERVAL_MS, run: () => cancelUnfinishedStarts(ctx) });
      schedule({ name: 'sweep of presigned keys', everyMs: config.UNSEALED_SWEEP_INTERVAL_MS, run: () => sweepOriginals(ctx) });
      schedule({ name: 'sweep of silent link fetches', everyMs: (config.VIDEO_LINK_STALL_SECONDS * 1000) / 2, run: () => failSilentFetches(ctx) });
      // Fetches still running when the service stops end failed (interrupted), so their credits come back at once.
      return () => ctx.links.stopAll();
    },
  };
}

export type RunningUpload = RunningService<Config>;
