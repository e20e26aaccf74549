import { z } from 'zod';
import { DEFAULT_FREE_CREDITS, servicePort, type PurchaseMode } from '@frametext/contracts';
import { loadConfigOrExit, serviceConfig } from '@frametext/service-kit';

const trueOrFalse = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
const optionalText = z.string().min(1).optional();

/** Billing settings: every key has a default (or is optional) and is read from the environment variable of the same name. */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('billing')),
  /** Credits granted once to every new account (the spec names both 20 and 50; the server decides). */
  FREE_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(DEFAULT_FREE_CREDITS),
  /** A reservation that upload.completed.v1 has not confirmed within this many hours was abandoned: the sweep releases it. */
  RESERVATION_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(6),
  /** How often each replica runs the abandoned-reservation sweep. */
  RESERVATION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).default(600_000),
  /** Queue of the Cloud AI workers (ocr-cloud's service name): /api/config offers Cloud AI while a worker consumes it. */
  OCR_CLOUD_QUEUE: z.string().min(1).default('ocr-cloud'),
  /** Public address of the app (the gateway): checkout success and cancel links, and the simulated checkout page. */
  APP_URL: z.string().url().default('http://localhost:8080'),
  /** Stripe secret key (sk_test_... or sk_live_...). With it, purchases go through real Stripe Checkout. */
  STRIPE_SECRET_KEY: optionalText,
  /** Signing secret of the Stripe webhook endpoint (whsec_...); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Where the Stripe SDK sends API calls (tests point it at a local server); default Stripe's own API. */
  STRIPE_API_URL: z.string().url().optional(),
  /**
   * The simulated checkout (no money moves, credits for free): on only when set to true (npm start and tests do),
   * never by default, and refused together with STRIPE_SECRET_KEY. Unset or false without Stripe: no purchases.
   */
  SIMULATED_CHECKOUT: trueOrFalse.default(false),
  /** Secret the simulated checkout signs its webhooks with; generated at start when unset. */
  SIMULATED_CHECKOUT_WEBHOOK_SECRET: z.string().min(16).optional(),
}).superRefine((c, ctx) => {
  if (c.STRIPE_SECRET_KEY && c.SIMULATED_CHECKOUT === true) {
    ctx.addIssue({ code: 'custom', path: ['SIMULATED_CHECKOUT'], message: 'the simulated checkout cannot be on while STRIPE_SECRET_KEY is set' });
  }
  if (c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required with STRIPE_SECRET_KEY (the whsec_... secret of the webhook endpoint)' });
  }
});

export type Config = z.infer<typeof configSchema>;
export type BillingConfig = Config;

/** How purchases are taken: real Stripe, the simulated checkout, or not at all (`/api/config` tells the SPA). */
export type PaymentsMode = PurchaseMode;

/** Stripe with a secret key; the simulated checkout only when SIMULATED_CHECKOUT=true; otherwise no purchases. */
export function paymentsMode(config: BillingConfig): PaymentsMode {
  if (config.STRIPE_SECRET_KEY) return 'stripe';
  return config.SIMULATED_CHECKOUT ? 'simulated' : 'off';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): BillingConfig {
  return loadConfigOrExit('billing', configSchema, env);
}
