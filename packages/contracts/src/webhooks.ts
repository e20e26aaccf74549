import { z } from 'zod';
import { engineSchema, isoDateTimeSchema, mediaContentSchema, uploadKindSchema, uploadStatusSchema } from './common.js';

/*
 * Webhooks: a person registers an HTTPS URL; when one of their uploads is processed or fails, FrameText POSTs a
 * signed event to it (docs/webhooks.md). The bodies of /api/webhooks and the event a receiver gets.
 */

/** How many webhooks one person may have at a time. */
export const MAX_WEBHOOKS_PER_USER = 5;

/** Header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the webhook's secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'FrameText-Signature';

export const WEBHOOK_EVENT_TYPES = ['upload.processed', 'upload.failed', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Its messages are sentences a person reads on the Account page as they are (results names no field in front). */
export const createWebhookRequestSchema = z.object({
  url: z
    .string({ error: 'Enter the address your events should go to, such as https://example.com/frametext.' })
    .trim()
    .min(1, 'Enter the address your events should go to, such as https://example.com/frametext.')
    .max(2048, 'The address is too long: at most 2048 characters.')
    .url('The address must be a full URL, such as https://example.com/frametext.'),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

export const webhookIdSchema = z.uuid({ error: 'the webhook id is not one of ours' });

export const webhookSchema = z.object({
  id: webhookIdSchema,
  url: z.string(),
  createdAt: isoDateTimeSchema,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to a registration: the only time the signing secret is shown. */
export const createWebhookResponseSchema = z.object({
  webhook: webhookSchema,
  secret: z.string().startsWith('whsec_'),
});
export type CreateWebhookResponse = z.infer<typeof createWebhookResponseSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One event on its way to one webhook, with the receiver's answer to the latest attempt. */
export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  webhookId: webhookIdSchema,
  eventId: z.uuid(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int().nonnegative(),
  /** The HTTP status of the latest answer; null before the first attempt or when no answer came. */
  responseStatus: z.number().int().nullable(),
  /** The start of the latest answer's body, or why there was none (timeout, refused address). */
  responseExcerpt: z.string().nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
  createdAt: isoDateTimeSchema,
  lastAttemptAt: isoDateTimeSchema.nullable(),
  /** When the next attempt is due while pending; null once delivered or given up. */
  nextAttemptAt: isoDateTimeSchema.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const listWebhooksResponseSchema = z.object({
  webhooks: z.array(webhookSchema),
  /** The most recent deliveries of all the person's webhooks, newest first. */
  deliveries: z.array(webhookDeliverySchema),
});
export type ListWebhooksResponse = z.infer<typeof listWebhooksResponseSchema>;

/** The upload an event is about. No OCR text: the receiver fetches the results from `resultsUrl` with its token. */
export const webhookUploadSchema = z.object({
  uploadId: z.string(),
  status: uploadStatusSchema,
  /** The extraction mode (the upload's mediaContent). */
  mode: mediaContentSchema.nullable(),
  engine: engineSchema.nullable(),
  kind: uploadKindSchema.nullable(),
  counts: z.object({
    framesTotal: z.number().int().nonnegative().nullable(),
    framesProcessed: z.number().int().nonnegative().nullable(),
  }),
  /** Why it failed, in the words the uploads list shows (upload.failed only). */
  failureReason: z.string().nullable(),
  resultsUrl: z.string(),
});

/** The body FrameText POSTs. `id` is the same on every attempt: a receiver that has seen it can ignore it. */
export const webhookEventSchema = z.object({
  id: z.uuid(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  createdAt: isoDateTimeSchema,
  /** The upload for upload.processed and upload.failed; null for webhook.test. */
  data: webhookUploadSchema.nullable(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
