import type { Channel, ChannelModel } from 'amqplib';
import { checkQueue } from './queue-probe.js';

/** How a consuming service retries: a failed attempt n waits retryDelayMs * 2^(n-1), up to maxAttempts attempts. */
export interface RetryPolicy {
  retryDelayMs: number;
  maxAttempts: number;
}

/** Retry n waits retryDelay * 2^(n-1): quick for a blip, longer for an outage. */
export function retryDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/** The delays a policy uses, one per attempt that can be retried. */
export function retryDelays(policy: RetryPolicy): number[] {
  return Array.from({ length: Math.max(0, policy.maxAttempts - 1) }, (_, i) => retryDelay(policy.retryDelayMs, i + 1));
}

/** Where a message waits before going back to `service` after `delayMs`: one queue per delay. */
export function retryQueueName(service: string, delayMs: number): string {
  return `${service}.retry.${delayMs}ms`;
}

/** The queues of a consuming service: its work queue and where dead messages rest (retry queues: retryQueueName). */
export function queueNames(service: string): { main: string; dlq: string } {
  return { main: service, dlq: `${service}.dlq` };
}

/** The service's urgent queue (its consumers marked `urgent`), with retry and dead-letter queues named after it. */
export function urgentQueueName(service: string): string {
  return `${service}.urgent`;
}

/** Every queue a consuming service declares (its urgent family included), for tools and tests that remove them. */
export function allQueueNames(service: string, policy: RetryPolicy): string[] {
  return [service, urgentQueueName(service)].flatMap((name) => {
    const q = queueNames(name);
    return [q.main, ...retryDelays(policy).map((d) => retryQueueName(name, d)), q.dlq];
  });
}

/**
 * The direct exchange through which a queue family's own messages move between its queues: retries, dead letters and
 * the broker's dead-lettering, each routed by the target queue's name. With it a service never needs the default
 * exchange, which would let it put messages in any queue (see docs/security.md, The broker).
 */
export function requeueExchangeName(service: string): string {
  return `${service}.requeue`;
}

/** Where messages that no queue is bound for end up (for example, published before their consumer first started). */
export function unroutedName(exchange: string): string {
  return `${exchange}.unrouted`;
}

/**
 * What durable queues are declared as, and the handling starts a message may have that end with no answer (the
 * consumer counts those). A quorum work queue also carries the broker's own delivery limit as a backstop
 * (deliveryBackstop), for a message that keeps coming back without a start being counted.
 */
export interface QueueSettings {
  type: QueueType;
  maxInterruptions: number;
}

/**
 * The quorum work queue's `x-delivery-limit`. The broker counts every delivery that comes back, hand-backs included
 * (a worker that stops or scales in returns what it had prefetched, a broker restart returns everything unacked), so
 * it cannot be the rule: the consumer counts only handling starts. The limit stops a message the consumer never gets
 * to count (its worker dies before it can) from coming back forever. A worker whose database is out of reach holds
 * the message and tries again rather than hand it back, so an outage does not use this limit up.
 */
export const deliveryBackstop = (maxInterruptions: number) => 5 * (maxInterruptions + 1);

export type QueueType = 'quorum' | 'classic';

/** Where topology is declared: exchanges and bindings on `channel`; each queue on a channel of its own, since a refused declaration closes its channel. */
export interface Declaring {
  connection: ChannelModel;
  channel: Channel;
  queues: QueueSettings;
}

/** What a declaration left: the queues that exist with other arguments and were kept as they are. */
export interface Declared {
  kept: string[];
}

/**
 * Declares a durable queue with `args` (plus the queue type, and at-least-once dead-lettering on a quorum queue that
 * dead-letters). A queue that already exists with other arguments (a classic queue from an earlier release, or
 * another delivery limit) makes the broker refuse with PRECONDITION_FAILED: it is then kept as it is, and reported.
 */
async function declareQueue(d: Declaring, name: string, args: Record<string, unknown>, declared: Declared): Promise<void> {
  const quorum = d.queues.type === 'quorum';
  const deadLetters = quorum && 'x-dead-letter-exchange' in args ? { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } : {};
  const channel = await d.connection.createChannel();
  channel.on('error', () => undefined);
  try {
    await channel.assertQueue(name, { durable: true, arguments: { ...(quorum ? { 'x-queue-type': 'quorum' } : {}), ...args, ...deadLetters } });
  } catch (err) {
    // The broker refuses other things with 406 too (an argument it does not know): only an existing queue is kept.
    if ((err as { code?: unknown }).code !== 406 || !(await checkQueue(d.connection, name))) throw err;
    declared.kept.push(name);
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/**
 * The one topic exchange, with an alternate exchange so that a message no queue is bound for is kept in the
 * durable queue `<exchange>.unrouted` (visible to operators, re-publishable) instead of being dropped.
 */
export async function declareExchange(d: Declaring, exchange: string): Promise<Declared> {
  const declared: Declared = { kept: [] };
  const unrouted = unroutedName(exchange);
  await d.channel.assertExchange(unrouted, 'fanout', { durable: true });
  await declareQueue(d, unrouted, {}, declared);
  await d.channel.bindQueue(unrouted, unrouted, '');
  await d.channel.assertExchange(exchange, 'topic', { durable: true, alternateExchange: unrouted });
  return declared;
}

/**
 * Declares `<service>` bound by each pattern; for each retry delay, `<service>.retry.<delay>ms`, whose messages all
 * wait that long (the queue's own TTL) and then go back to `<service>`, so a long wait never holds back a shorter one
 * behind it; and `<service>.dlq`. Each is also bound by its own name to `<service>.requeue` (requeueExchangeName),
 * which carries every move between them. Declaring is idempotent, so it runs again after every reconnect; a changed
 * delay makes new queues (the old ones empty themselves into `<service>` as their messages expire). A quorum
 * `<service>` dead-letters to `<service>.dlq` past deliveryBackstop.
 */
export async function declareServiceQueues(d: Declaring, exchange: string, service: string, bindings: string[], policy: RetryPolicy): Promise<Declared> {
  const declared: Declared = { kept: [] };
  const q = queueNames(service);
  const requeue = requeueExchangeName(service);
  await d.channel.assertExchange(requeue, 'direct', { durable: true });
  const toQueue = async (name: string, args: Record<string, unknown>) => {
    await declareQueue(d, name, args, declared);
    await d.channel.bindQueue(name, requeue, name);
  };
  await toQueue(q.dlq, {});
  const backstop = { 'x-delivery-limit': deliveryBackstop(d.queues.maxInterruptions), 'x-dead-letter-exchange': requeue, 'x-dead-letter-routing-key': q.dlq };
  await toQueue(q.main, d.queues.type === 'quorum' ? backstop : {});
  for (const pattern of new Set(bindings)) await d.channel.bindQueue(q.main, exchange, pattern);
  for (const delay of retryDelays(policy)) {
    await toQueue(retryQueueName(service, delay), { 'x-message-ttl': delay, 'x-dead-letter-exchange': requeue, 'x-dead-letter-routing-key': q.main });
  }
  return declared;
}
