import type { Knex, Logger, ObjectStorage } from '@frametext/service-kit';
import type { Config } from '../config.js';
import type { BillingClient } from '../data/billing-client.js';

/** What the upload use cases work with. */
export interface UploadContext {
  config: Config;
  db: Knex;
  storage: ObjectStorage;
  billing: BillingClient;
  logger: Logger;
}
