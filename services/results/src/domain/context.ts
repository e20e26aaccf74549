import type { Knex, Logger, ObjectStorage, ServiceMetrics } from '@frametext/service-kit';
import type { ResultsConfig } from '../config.js';

/** What the results use cases work with. */
export interface ResultsContext {
  config: ResultsConfig;
  db: Knex;
  storage: ObjectStorage;
  logger: Logger;
  /** Upload processing times are recorded here (absent in use-case tests without a running service). */
  metrics?: Pick<ServiceMetrics, 'uploadStageDuration'>;
}

/** Every object of an upload lives under this folder. */
export function uploadFolder(uploadId: string): string {
  return `uploads/${uploadId}`;
}

export function presentationKey(uploadId: string): string {
  return `${uploadFolder(uploadId)}/results/presentation.txt`;
}
