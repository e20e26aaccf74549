import { randomUUID } from 'node:crypto';
import {
  MAX_WEBHOOKS_PER_USER,
  WEBHOOK_SIGNATURE_HEADER,
  type CreateWebhookResponse,
  type ListWebhooksResponse,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
} from '@frametext/contracts';
import { badRequest, checkDestination, conflict, derivedEventId, notFound, RefusedDestination, type CheckedDestination, type DestinationPolicy, type Knex } from '@frametext/service-kit';
import type { UploadRow } from '../data/uploads.js';
import {
  claimDueDeliveries,
  deleteFinishedDeliveriesBefore,
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertDelivery,
  insertWebhook,
  lockWebhooksOf,
  recentDeliveriesOf,
  recordAttempt,
  webhooksOf,
  type ClaimedDelivery,
  type DeliveryRow,
  type WebhookRow,
} from '../data/webhooks.js';
import { deleteTestSendsOutsideWindow } from '../data/webhook-test-sends.js';
import { retryDelayMs } from '../webhooks/backoff.js';
import { postJson, type PostOutcome } from '../webhooks/post.js';
import { newWebhookSecret, signatureHeader } from '../webhooks/signature.js';
import type { ResultsContext } from './context.js';
import { spendTestEvent } from './webhook-test-cap.js';

/** How many recent deliveries the Account page lists. */
const RECENT_DELIVERIES = 20;
/** Deliveries claimed per pass of the delivery loop (each replica; they are sent at the same time). */
const BATCH = 20;

function policyOf(ctx: ResultsContext): DestinationPolicy {
  return { purpose: 'webhooks', localHosts: ctx.config.WEBHOOK_LOCAL_HOSTS, appUrl: ctx.config.APP_URL, resolve: ctx.resolveHost };
}

/** checkDestination for a registration: a refusal is a 400 that says what to fix. */
async function checkRegisteredUrl(raw: string, policy: DestinationPolicy): Promise<CheckedDestination> {
  try {
    return await checkDestination(raw, policy);
  } catch (err) {
    if (err instanceof RefusedDestination) throw badRequest('webhooks/refused-url', err.message);
    throw err;
  }
}

function toWebhook(row: WebhookRow): Webhook {
  return { id: row.id, url: row.url, createdAt: row.created_at.toISOString() };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    responseExcerpt: row.response_excerpt,
    durationMs: row.duration_ms,
    createdAt: row.created_at.toISOString(),
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  };
}

/** Registers a webhook for `userId` after checking where its URL points; the answer is the only time its secret is shown. */
export async function registerWebhook(ctx: ResultsContext, userId: string, url: string): Promise<CreateWebhookResponse> {
  const checked = await checkRegisteredUrl(url, policyOf(ctx));
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (trx) => {
    await lockWebhooksOf(trx, userId);
    const existing = await webhooksOf(trx, userId);
    if (existing.length >= MAX_WEBHOOKS_PER_USER) {
      throw conflict('webhooks/limit', `You can have at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one to add another.`);
    }
    return insertWebhook(trx, { id: randomUUID(), user_id: userId, url: checked.url.href, secret });
  });
  return { webhook: toWebhook(row), secret };
}

export async function listWebhooks(ctx: ResultsContext, userId: string): Promise<ListWebhooksResponse> {
  const [webhooks, deliveries] = await Promise.all([webhooksOf(ctx.db, userId), recentDeliveriesOf(ctx.db, userId, RECENT_DELIVERIES)]);
  return { webhooks: webhooks.map(toWebhook), deliveries: deliveries.map(toDelivery) };
}

export async function removeWebhook(ctx: ResultsContext, userId: string, id: string): Promise<void> {
  if (!(await deleteWebhook(ctx.db, userId, id))) throw notFound('webhooks/not-found', 'There is no such webhook on your account.');
}

function eventBody(id: string, type: WebhookEventType, data: WebhookEvent['data']): string {
  const event: WebhookEvent = { id, type, createdAt: new Date().toISOString(), data };
  return JSON.stringify(event);
}

/**
 * Queues a webhook.test event for one of the person's webhooks; the delivery loop sends it like any other. At most
 * WEBHOOK_TEST_EVENTS_PER_MINUTE a person (spendTestEvent: 429, with `onRefused` told the wait in seconds).
 */
export async function sendTestEvent(ctx: ResultsContext, userId: string, id: string, onRefused: (retryAfterSeconds: number) => void = () => {}): Promise<WebhookDelivery> {
  const deliveryId = randomUUID();
  await ctx.db.transaction(async (trx) => {
    await lockWebhooksOf(trx, userId);
    const webhook = await findWebhook(trx, userId, id);
    if (!webhook) throw notFound('webhooks/not-found', 'There is no such webhook on your account.');
    await spendTestEvent(ctx, trx, userId, onRefused);
    const eventId = randomUUID();
    await insertDelivery(trx, { id: deliveryId, webhook_id: webhook.id, event_id: eventId, event_type: 'webhook.test', payload: eventBody(eventId, 'webhook.test', null) });
  });
  return toDelivery((await findDelivery(ctx.db, deliveryId))!);
}

/**
 * Queues `type` about an upload for every webhook of its owner, in the caller's transaction (the one that made the
 * upload processed or failed), so the event exists exactly when the change does. Its id derives from the upload and
 * the type: the same transaction run again (a redelivered message) queues nothing new, and a receiver can dedupe on it.
 */
export async function queueUploadEvent(
  ctx: ResultsContext,
  trx: Knex.Transaction,
  type: 'upload.processed' | 'upload.failed',
  upload: UploadRow,
  userId: string,
): Promise<number> {
  const webhooks = await webhooksOf(trx, userId);
  if (webhooks.length === 0) return 0;
  const framesProcessed =
    upload.frames_total == null
      ? null
      : Number((await trx('frames').where({ upload_id: upload.id }).whereNotNull('ocr_done_at').whereNull('ocr_failure_reason').count<{ count: string }[]>({ count: '*' }))[0]!.count);
  const eventId = derivedEventId('webhook', type, upload.id);
  const body = eventBody(eventId, type, {
    uploadId: upload.id,
    status: upload.status,
    mode: upload.media_content,
    engine: upload.engine,
    kind: upload.kind,
    counts: { framesTotal: upload.frames_total, framesProcessed },
    failureReason: type === 'upload.failed' ? upload.failure_reason : null,
    resultsUrl: `${ctx.config.APP_URL.replace(/\/+$/, '')}/api/getUploadDetails/${encodeURIComponent(upload.id)}`,
  });
  for (const w of webhooks) await insertDelivery(trx, { id: randomUUID(), webhook_id: w.id, event_id: eventId, event_type: type, payload: body });
  return webhooks.length;
}

/** One attempt: the destination checked again now (after DNS), then the signed POST. */
async function attempt(ctx: ResultsContext, d: ClaimedDelivery): Promise<PostOutcome> {
  let dest;
  try {
    dest = await checkDestination(d.url, policyOf(ctx));
  } catch (err) {
    if (err instanceof RefusedDestination) return { status: null, excerpt: `not sent: ${err.message}`, durationMs: 0 };
    throw err;
  }
  const headers = { [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(d.secret, d.payload), 'FrameText-Event-Id': d.event_id, 'FrameText-Event-Type': d.event_type };
  return postJson(dest, d.payload, headers, ctx.config.WEBHOOK_TIMEOUT_MS);
}

export interface DeliveryClock {
  now?: () => Date;
  random?: () => number;
}

/**
 * The delivery loop's pass: claims the deliveries due, sends them, and records each answer. A 2xx delivers; anything
 * else (an error status, no answer, a refused address) is tried again after a growing wait, until the next try would
 * fall more than WEBHOOK_GIVE_UP_MS after the event: then the delivery is failed. A claim lasts twice the timeout, so
 * a delivery whose process died mid-attempt goes out again once that has passed. Answers how many attempts it made.
 */
export async function deliverDueWebhooks(ctx: ResultsContext, clock: DeliveryClock = {}): Promise<number> {
  const now = clock.now ?? (() => new Date());
  const { WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_BASE_MS, WEBHOOK_MAX_DELAY_MS, WEBHOOK_GIVE_UP_MS } = ctx.config;
  let attempts = 0;
  for (;;) {
    const start = now();
    const claimed = await claimDueDeliveries(ctx.db, start, new Date(start.getTime() + 2 * WEBHOOK_TIMEOUT_MS), BATCH);
    await Promise.all(
      claimed.map(async (d) => {
        const outcome = await attempt(ctx, d);
        const ok = outcome.status != null && outcome.status >= 200 && outcome.status < 300;
        const next = new Date(now().getTime() + retryDelayMs(d.attempts, WEBHOOK_RETRY_BASE_MS, WEBHOOK_MAX_DELAY_MS, clock.random));
        const givenUp = !ok && next.getTime() > d.created_at.getTime() + WEBHOOK_GIVE_UP_MS;
        await recordAttempt(ctx.db, d, {
          status: ok ? 'delivered' : givenUp ? 'failed' : 'pending',
          nextAttemptAt: next,
          responseStatus: outcome.status,
          responseExcerpt: outcome.excerpt,
          durationMs: outcome.durationMs,
        });
        ctx.logger.info({ deliveryId: d.id, eventId: d.event_id, attempt: d.attempts, status: outcome.status, ok, givenUp }, 'webhook attempt');
      }),
    );
    attempts += claimed.length;
    if (claimed.length < BATCH) return attempts;
  }
}

/** Retention of the delivery history: finished deliveries older than WEBHOOK_HISTORY_DAYS go, and test events that no longer count. */
export async function forgetOldDeliveries(ctx: ResultsContext, now: Date = new Date()): Promise<number> {
  await deleteTestSendsOutsideWindow(ctx.db);
  return deleteFinishedDeliveriesBefore(ctx.db, new Date(now.getTime() - ctx.config.WEBHOOK_HISTORY_DAYS * 86_400_000));
}
