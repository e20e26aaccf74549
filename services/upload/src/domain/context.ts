import type { EngineAvailability, Knex, Logger, ObjectStorage } from '@frametext/service-kit';
import type { Config } from '../config.js';
import type { BillingClient } from '../data/billing-client.js';
import type { LinkFetches } from '../links/link-fetches.js';

/** What the upload use cases work with. */
export interface UploadContext {
  config: Config;
  db: Knex;
  storage: ObjectStorage;
  billing: BillingClient;
  logger: Logger;
  /** Which OCR engines can be chosen now (Cloud AI: whether an ocr-cloud worker consumes its queue). */
  engines: EngineAvailability;
  /** The fetches of videos by link running in this process. */
  links: LinkFetches;
}

/** The signed-in user a request is made by, with their token for the calls made on their behalf. */
export interface Caller {
  userId: string;
  accessToken: string;
}
