import type { TestBilling } from '../helpers.js';
import { signatureFor } from './stripe-events.js';

export const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';

export interface DeliveryOptions {
  secret?: string;
  /** Seconds between signing and delivery. */
  ageSeconds?: number;
  /** Changes the body after it was signed. */
  tamper?: (payload: string) => string;
  signature?: string | null;
}

/** POSTs an event to the webhook route the way Stripe does: raw JSON body, Stripe-Signature header. */
export async function deliverEvent(billing: TestBilling, event: Record<string, unknown>, opts: DeliveryOptions = {}) {
  const payload = JSON.stringify(event, null, 2);
  const signature = opts.signature === undefined ? signatureFor(payload, opts.secret ?? WEBHOOK_SECRET, opts.ageSeconds ?? 0) : opts.signature;
  const body = opts.tamper ? opts.tamper(payload) : payload;
  return billing.send('POST', '/api/stripe/webhook', {
    raw: body,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'stripe-signature': signature }) },
  });
}

/** A signed-in user's call, with their own access token (as the gateway forwards it). */
export function asUser(billing: TestBilling, userId: string, method: string, path: string, body?: unknown) {
  return billing.send(method, path, { user: userId, body });
}
