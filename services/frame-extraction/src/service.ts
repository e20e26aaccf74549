import sharp from 'sharp';
import { cancelledUploadsMigration, type Logger, type ServiceDefinition, setSharpThreads } from '@frametext/service-kit';
import type { Config } from './config.js';
import { uploadCompletedConsumer } from './messaging/upload-completed.js';
import { uploadDeletedConsumer } from './messaging/upload-deleted.js';

export interface FrameExtractionOptions {
  /** Service (and queue) name; tests pass a unique one. */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
}

/** The frame-extraction service as the kit runs it: the uploads to extract, the deletions that stop them; no routes beyond health. */
export function frameExtractionService(config: Config, opts: FrameExtractionOptions = {}): ServiceDefinition<Config> {
  return {
    name: opts.name ?? 'frame-extraction',
    config,
    dbSchema: opts.dbSchema,
    logger: opts.logger,
    migrations: [cancelledUploadsMigration],
    usesStorage: true,
    consumes: ['upload.completed.v1', 'upload.deleted.v1'],
    consumers: ({ storage, db }) => {
      if (!storage) throw new Error('frame-extraction needs the object store');
      setSharpThreads(sharp, config);
      return [uploadCompletedConsumer({ storage, config, db }), uploadDeletedConsumer()];
    },
  };
}
