import Stripe from 'stripe';
import type { CheckoutOrder, CreatedCheckout, PaymentProvider } from './provider.js';
import { ProviderUnavailableError, orderMetadata } from './provider.js';
import { errorText } from '@frametext/service-kit';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (tests run a local server that speaks Stripe's API). */
  apiUrl?: string;
}

/** The Stripe client, pointed at `apiUrl` when given (host, port and protocol are the SDK's own options). */
export function stripeClient(secretKey: string, apiUrl?: string): Stripe {
  const address = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'FrameText' },
    ...(address
      ? {
          host: address.hostname,
          port: address.port || (address.protocol === 'https:' ? 443 : 80),
          protocol: address.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Real Stripe Checkout: a hosted payment page in payment mode for one pack. */
export function stripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const stripe = stripeClient(opts.secretKey, opts.apiUrl);
  return {
    name: 'stripe',
    webhookSecret: opts.webhookSecret,
    async createCheckout(order: CheckoutOrder): Promise<CreatedCheckout> {
      const metadata = orderMetadata(order);
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: order.currency,
                  unit_amount: order.priceCents,
                  product_data: { name: `${order.credits.toLocaleString('en-US')} FrameText credits` },
                },
              },
            ],
            client_reference_id: order.userId,
            metadata,
            payment_intent_data: { metadata },
            success_url: order.successUrl,
            cancel_url: order.cancelUrl,
          },
          // The SDK retries a failed call with this key, so Stripe makes one session however many tries it takes.
          { idempotencyKey: order.checkoutId },
        );
      } catch (err) {
        throw new ProviderUnavailableError(`Stripe did not create the checkout session: ${errorText(err)}`, { cause: err });
      }
      if (!session.url) throw new ProviderUnavailableError(`Stripe answered checkout session ${session.id} without a payment page address`);
      return { sessionId: session.id, url: session.url };
    },
  };
}
