import type { Channel } from 'amqplib';

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

/** Where messages that no queue is bound for end up (for example, published before their consumer first started). */
export function unroutedName(exchange: string): string {
  return `${exchange}.unrouted`;
}

/**
 * The one topic exchange, with an alternate exchange so that a message no queue is bound for is kept in the
 * durable queue `<exchange>.unrouted` (visible to operators, re-publishable) instead of being dropped.
 */
export async function declareExchange(channel: Channel, exchange: string): Promise<void> {
  const unrouted = unroutedName(exchange);
  await channel.assertExchange(unrouted, 'fanout', { durable: true });
  await channel.assertQueue(unrouted, { durable: true });
  await channel.bindQueue(unrouted, unrouted, '');
  await channel.assertExchange(exchange, 'topic', { durable: true, alternateExchange: unrouted });
}

/**
 * Declares `<service>` bound by each pattern; for each retry delay, `<service>.retry.<delay>ms`, whose messages all
 * wait that long (the queue's own TTL) and then go back to `<service>` through the default exchange, so a long wait
 * never holds back a shorter one behind it; and `<service>.dlq`. Declaring is idempotent, so it runs again after every
 * reconnect; a changed delay makes new queues (the old ones empty themselves into `<service>` as their messages expire).
 */
export async function declareServiceQueues(channel: Channel, exchange: string, service: string, bindings: string[], policy: RetryPolicy): Promise<void> {
  const q = queueNames(service);
  await channel.assertQueue(q.main, { durable: true });
  for (const pattern of new Set(bindings)) await channel.bindQueue(q.main, exchange, pattern);
  for (const delay of retryDelays(policy)) {
    await channel.assertQueue(retryQueueName(service, delay), {
      durable: true,
      arguments: { 'x-message-ttl': delay, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': q.main },
    });
  }
  await channel.assertQueue(q.dlq, { durable: true });
}
