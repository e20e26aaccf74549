import type { Knex } from '@frametext/service-kit';
import type { MailMessage } from './mailer.js';

type Db = Knex | Knex.Transaction;

export interface QueuedMail extends MailMessage {
  id: string;
  attempts: number;
  sendBefore: Date;
}

/** Queues a mail in the caller's transaction; it is sent by deliverQueuedMail. */
export async function queueMail(db: Db, message: MailMessage, sendBefore: Date): Promise<void> {
  await db('mail_outbox').insert({ to_address: message.to, subject: message.subject, body: message.text, send_before: sendBefore });
}

/** Takes the next due mail and locks it (other replicas skip it) for the rest of `trx`. */
export async function claimDueMail(trx: Knex.Transaction): Promise<QueuedMail | undefined> {
  const row = await trx('mail_outbox')
    .where('next_attempt_at', '<=', trx.fn.now())
    .orderBy('id')
    .forUpdate()
    .skipLocked()
    .first<{ id: string; to_address: string; subject: string; body: string; attempts: number; send_before: Date } | undefined>();
  return row && { id: String(row.id), to: row.to_address, subject: row.subject, text: row.body, attempts: row.attempts, sendBefore: row.send_before };
}

export async function deleteMail(db: Db, id: string): Promise<void> {
  await db('mail_outbox').where({ id }).delete();
}

export async function postponeMail(db: Db, id: string, nextAttemptAt: Date, error: string): Promise<void> {
  await db('mail_outbox')
    .where({ id })
    .update({ attempts: db.raw('attempts + 1'), next_attempt_at: nextAttemptAt, last_error: error.slice(0, 2000) });
}

export async function countQueuedMail(db: Db): Promise<number> {
  const row = await db('mail_outbox').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/** Drops the mail still queued for an address (account deletion: the address is erased, and nothing is sent to it). */
export async function dropMailTo(db: Db, address: string): Promise<number> {
  return db('mail_outbox').where({ to_address: address }).delete();
}
