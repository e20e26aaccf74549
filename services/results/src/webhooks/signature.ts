import { createHmac, randomBytes } from 'node:crypto';

/*
 * Signatures the way Stripe signs its webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed
 * with the webhook's secret. The timestamp is signed with the body, so a receiver that rejects old timestamps is
 * safe from replays of a captured request. How a receiver checks it: docs/webhooks.md (the tests check it the same way,
 * in test/support/receiver.ts).
 */

/** A new signing secret: `whsec_` and 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, body: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

