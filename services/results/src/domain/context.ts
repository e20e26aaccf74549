import type { Knex, Logger, ObjectStorage, ServiceMetrics } from '@frametext/service-kit';
import type { ResultsConfig } from '../config.js';
import type { UploadServiceClient } from '../data/upload-service-client.js';
import type { HostResolver } from '@frametext/service-kit';

/** What the results use cases work with. */
export interface ResultsContext {
  config: ResultsConfig;
  db: Knex;
  storage: ObjectStorage;
  logger: Logger;
  /** The upload service, asked about uploads completed a moment ago that results has not heard of yet. */
  uploadService: UploadServiceClient;
  /** Upload processing times are recorded here (absent in use-case tests without a running service). */
  metrics?: Pick<ServiceMetrics, 'uploadStageDuration'>;
  /** Resolves webhook host names; the system's resolver when absent (tests script DNS answers with it). */
  resolveHost?: HostResolver;
}

/** Every object of an upload lives under this folder. */
export function uploadFolder(uploadId: string): string {
  return `uploads/${uploadId}`;
}

export function presentationKey(uploadId: string): string {
  return `${uploadFolder(uploadId)}/results/presentation.txt`;
}
