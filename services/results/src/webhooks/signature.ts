import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * Signatures the way Stripe signs its webhooks: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed
 * with the webhook's secret. The timestamp is signed with the body, so a receiver that rejects old timestamps is
 * safe from replays of a captured request.
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

/** What a receiver does (docs/webhooks.md shows the same steps): true when `header` signs `body` within `toleranceSeconds`. */
export function verifySignature(secret: string, body: string, header: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [k, v] = item.split('=', 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return (parts.get('v1') ?? []).some((v) => v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}
