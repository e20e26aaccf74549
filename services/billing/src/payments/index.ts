import { paymentsMode, type BillingConfig } from '../config.js';
import type { PaymentProvider } from './provider.js';
import { simulatedProvider } from './simulated-provider.js';
import { stripeProvider } from './stripe-provider.js';

/** The provider the settings choose: Stripe with a secret key, else the simulated checkout unless it is turned off. */
export function paymentProviderFor(config: BillingConfig): PaymentProvider | null {
  switch (paymentsMode(config)) {
    case 'stripe':
      return stripeProvider({ secretKey: config.STRIPE_SECRET_KEY!, webhookSecret: config.STRIPE_WEBHOOK_SECRET!, apiUrl: config.STRIPE_API_URL });
    case 'simulated':
      return simulatedProvider({ appUrl: config.APP_URL, webhookSecret: config.SIMULATED_CHECKOUT_WEBHOOK_SECRET });
    case 'off':
      return null;
  }
}
