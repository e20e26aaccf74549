import type { WebhookEventType } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

export interface WebhookRow {
  id: string;
  user_id: string;
  url: string;
  secret: string;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: WebhookEventType;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_excerpt: string | null;
  duration_ms: number | null;
  created_at: Date;
}

/** A delivery claimed for an attempt, with where it goes and the key it is signed with. */
export type ClaimedDelivery = DeliveryRow & Pick<WebhookRow, 'url' | 'secret'>;

/** Serialises registrations of one person, so two at once cannot both pass the per-person limit. */
export async function lockWebhooksOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('webhooks'), hashtext(?))`, [userId]);
}

export async function webhooksOf(db: Knex | Knex.Transaction, userId: string): Promise<WebhookRow[]> {
  return db('webhooks').where({ user_id: userId }).orderBy('created_at', 'asc').orderBy('id', 'asc');
}

export async function findWebhook(db: Knex | Knex.Transaction, userId: string, id: string): Promise<WebhookRow | undefined> {
  return db('webhooks').where({ user_id: userId, id }).first();
}

export async function insertWebhook(trx: Knex.Transaction, row: Pick<WebhookRow, 'id' | 'user_id' | 'url' | 'secret'>): Promise<WebhookRow> {
  const [created] = await trx('webhooks').insert(row).returning('*');
  return created as WebhookRow;
}

/** Deletes a webhook with its deliveries (pending ones are not sent); answers whether it existed. */
export async function deleteWebhook(db: Knex | Knex.Transaction, userId: string, id: string): Promise<boolean> {
  return (await db('webhooks').where({ user_id: userId, id }).delete()) > 0;
}

export async function deleteWebhooksOf(trx: Knex.Transaction, userId: string): Promise<number> {
  return trx('webhooks').where({ user_id: userId }).delete();
}

/**
 * Deletes the deliveries about one upload from its owner's webhooks, pending ones included (they are not sent): an
 * upload.failed event's reason can quote a file name, which must not outlive the upload. Answers how many went.
 */
export async function deleteDeliveriesAbout(trx: Knex.Transaction, userId: string, uploadId: string): Promise<number> {
  return trx('webhook_deliveries')
    .whereIn('webhook_id', trx('webhooks').select('id').where({ user_id: userId }))
    .whereRaw(`(payload::jsonb)->'data'->>'uploadId' = ?`, [uploadId])
    .delete();
}

/** Queues an event for a webhook; an event it already holds (the same transaction run again) is kept once. */
export async function insertDelivery(trx: Knex | Knex.Transaction, row: Pick<DeliveryRow, 'id' | 'webhook_id' | 'event_id' | 'event_type' | 'payload'>): Promise<void> {
  await trx('webhook_deliveries').insert(row).onConflict(['webhook_id', 'event_id']).ignore();
}

export async function findDelivery(db: Knex, id: string): Promise<DeliveryRow | undefined> {
  return db('webhook_deliveries').where({ id }).first();
}

export async function recentDeliveriesOf(db: Knex, userId: string, limit: number): Promise<DeliveryRow[]> {
  return db('webhook_deliveries as d')
    .join('webhooks as w', 'w.id', 'd.webhook_id')
    .where('w.user_id', userId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .select('d.*');
}

/**
 * Claims up to `limit` deliveries due at `now` for one attempt each: counts the attempt and moves their next attempt
 * to `leaseUntil`, so no other replica takes them meanwhile, and so that a process that dies mid-attempt leaves them
 * due again once the lease ends (they go out again, with the same event id). SKIP LOCKED: replicas claim different rows.
 * People take turns: each person's longest-due delivery first, then each one's second, so one person's backlog (or a
 * slow receiver of theirs) cannot hold everyone else's deliveries behind it.
 */
export async function claimDueDeliveries(db: Knex, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const result = await db.raw<{ rows: ClaimedDelivery[] }>(
    `with turns as (
       select d.id, d.next_attempt_at, row_number() over (partition by w.user_id order by d.next_attempt_at, d.id) as turn
         from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.status = 'pending' and d.next_attempt_at <= ?
     ), due as (
       select d.id from webhook_deliveries d join turns t on t.id = d.id
        order by t.turn, t.next_attempt_at
        limit ? for update of d skip locked
     ), claimed as (
       update webhook_deliveries d
          set attempts = d.attempts + 1, next_attempt_at = ?, last_attempt_at = ?
         from due where d.id = due.id
       returning d.*
     )
     select claimed.*, w.url, w.secret from claimed join webhooks w on w.id = claimed.webhook_id`,
    [now, limit, leaseUntil, now],
  );
  return result.rows;
}

export interface AttemptRecord {
  status: DeliveryRow['status'];
  nextAttemptAt: Date;
  responseStatus: number | null;
  responseExcerpt: string;
  durationMs: number;
}

/**
 * Records an attempt's outcome, unless the delivery has been claimed again since (this attempt outlived its lease):
 * the later attempt's outcome is the one that counts.
 */
export async function recordAttempt(db: Knex, claimed: Pick<DeliveryRow, 'id' | 'attempts'>, outcome: AttemptRecord): Promise<void> {
  await db('webhook_deliveries').where({ id: claimed.id, attempts: claimed.attempts, status: 'pending' }).update({
    status: outcome.status,
    next_attempt_at: outcome.nextAttemptAt,
    response_status: outcome.responseStatus,
    response_excerpt: outcome.responseExcerpt,
    duration_ms: outcome.durationMs,
  });
}

/** Removes finished deliveries created before `cutoff` (the Account page shows recent ones only). */
export async function deleteFinishedDeliveriesBefore(db: Knex, cutoff: Date): Promise<number> {
  return db('webhook_deliveries').whereNot({ status: 'pending' }).where('created_at', '<', cutoff).delete();
}
