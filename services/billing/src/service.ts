import { engineAvailability, type Bus, type Logger, type RunningService, type ServiceDefinition } from '@frametext/service-kit';
import type { BillingConfig } from './config.js';
import { billingMigrations } from './data/migrations.js';
import type { BillingContext } from './domain/context.js';
import { releaseAbandonedReservations } from './domain/settlement.js';
import { WEBHOOK_PATH, paymentRoutes } from './http/payment-routes.js';
import { internalRoutes, publicRoutes } from './http/routes.js';
import { simulatedCheckoutOff, simulatedCheckoutRoutes } from './http/simulated-checkout.js';
import { billingConsumers, CONSUMED_EVENTS } from './messaging/consumers.js';
import { paymentProviderFor } from './payments/index.js';

export interface BillingServiceOptions {
  /** Service name: its queue and default schema. Tests pass a unique one. */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Receives the use-case context once built (tests run the sweep through it). */
  onContext?: (ctx: BillingContext) => void;
}

const PAYMENTS_LOG = {
  stripe: 'purchases go through Stripe Checkout',
  simulated: 'purchases use the simulated checkout: no money moves',
  off: 'purchases are off: no STRIPE_SECRET_KEY, and SIMULATED_CHECKOUT is not true',
} as const;

/** The billing service as the kit runs it: ledger migrations, consumers, routes, payments and the reservation sweep. */
export function billingService(config: BillingConfig, opts: BillingServiceOptions = {}): ServiceDefinition<BillingConfig> {
  const payments = paymentProviderFor(config);
  let engines: ReturnType<typeof engineAvailability> | undefined;
  const enginesOf = (bus: Bus) => (engines ??= engineAvailability({ queueConsumers: async (q) => (await bus.queueStats(q)).consumers, cloudQueue: config.OCR_CLOUD_QUEUE }));
  return {
    name: opts.name ?? 'billing',
    config,
    dbSchema: opts.dbSchema,
    migrations: billingMigrations,
    usesStorage: false,
    logger: opts.logger,
    rawBodyPaths: [WEBHOOK_PATH],
    authenticatesUsers: true,
    consumes: CONSUMED_EVENTS,
    consumers: ({ db, logger, bus }) => billingConsumers({ config, db, logger, payments, engines: enginesOf(bus) }),
    setup({ app, db, logger, bus, schedule }) {
      const ctx: BillingContext = { config, db, logger, payments, engines: enginesOf(bus) };
      app.use('/api', publicRoutes(ctx));
      app.use('/api', paymentRoutes(ctx));
      app.use('/api', payments?.name === 'simulated' ? simulatedCheckoutRoutes(ctx, payments) : simulatedCheckoutOff());
      app.use('/internal', internalRoutes(ctx));
      logger.info({ payments: payments?.name ?? 'off' }, PAYMENTS_LOG[payments?.name ?? 'off']);
      opts.onContext?.(ctx);
      schedule({ name: 'reservation sweep', everyMs: config.RESERVATION_SWEEP_INTERVAL_MS, run: () => releaseAbandonedReservations(ctx) });
    },
  };
}

export type RunningBilling = RunningService<BillingConfig>;
