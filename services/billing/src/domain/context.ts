import type { EngineAvailability, Knex, Logger } from '@frametext/service-kit';
import type { BillingConfig } from '../config.js';
import type { PaymentProvider } from '../payments/provider.js';

/** What billing's use cases need: settings, the database, a logger and the payment provider (null when purchases are off). */
export interface BillingContext {
  config: BillingConfig;
  db: Knex;
  logger: Logger;
  payments: PaymentProvider | null;
  /** Which OCR engines can be chosen now (Cloud AI: whether an ocr-cloud worker consumes its queue). */
  engines: EngineAvailability;
}
