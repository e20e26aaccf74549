import type { IdentityContext } from './context.js';
import { claimDueMail, deleteMail, postponeMail } from '../data/mail-outbox.js';
import { errorText } from '@frametext/service-kit';

/** Waits before retrying a failed send: 30 s, 1 min, 2 min, ... at most 15 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** attempts, 15 * 60_000);
}

/**
 * Sends every queued mail that is due, one at a time, each under a row lock so replicas never send one twice.
 * A mail is deleted once sent (its link is no longer stored anywhere), postponed when the send fails, and
 * dropped once it is past its send-before time. Returns how many were sent.
 */
export async function deliverQueuedMail(ctx: IdentityContext): Promise<number> {
  let sent = 0;
  for (;;) {
    const outcome = await ctx.db.transaction(async (trx) => {
      const mail = await claimDueMail(trx);
      if (!mail) return 'empty' as const;
      if (mail.sendBefore.getTime() <= Date.now()) {
        ctx.logger.warn({ mailId: mail.id, attempts: mail.attempts }, 'dropped a queued e-mail whose link has expired');
        await deleteMail(trx, mail.id);
        return 'dropped' as const;
      }
      try {
        await ctx.mailer.send({ to: mail.to, subject: mail.subject, text: mail.text });
        await deleteMail(trx, mail.id);
        return 'sent' as const;
      } catch (err) {
        const message = errorText(err);
        ctx.logger.error({ err, mailId: mail.id, attempts: mail.attempts + 1 }, 'could not send an e-mail; it stays queued');
        await postponeMail(trx, mail.id, new Date(Date.now() + retryDelayMs(mail.attempts)), message);
        return 'failed' as const;
      }
    });
    if (outcome === 'empty') return sent;
    if (outcome === 'sent') sent++;
  }
}

const rounds = new WeakMap<IdentityContext, Promise<number>>();
const kickedDuringRound = new WeakSet<IdentityContext>();

/**
 * Starts a delivery round unless this replica is running one; never throws. Mail queued while a round runs may come
 * after that round's last look for due mail, so a kick meanwhile runs one more round once it ends.
 */
export function kickMailDelivery(ctx: IdentityContext): void {
  if (rounds.has(ctx)) {
    kickedDuringRound.add(ctx);
    return;
  }
  const round = deliverQueuedMail(ctx)
    .catch((err: unknown) => {
      ctx.logger.error({ err }, 'e-mail delivery round failed');
      return 0;
    })
    .finally(() => {
      rounds.delete(ctx);
      if (kickedDuringRound.delete(ctx)) kickMailDelivery(ctx);
    });
  rounds.set(ctx, round);
}

/** How often each replica looks for queued mail that is due (new mail is sent at once; this catches retries). */
export const MAIL_DELIVERY_INTERVAL_MS = 15_000;

/** Kicks a delivery round and answers once the round in progress (this one or the one it joined) has ended. */
export async function mailDeliveryRound(ctx: IdentityContext): Promise<void> {
  kickMailDelivery(ctx);
  await rounds.get(ctx);
}
