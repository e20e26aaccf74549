import type { Channel } from 'amqplib';

/** The queues of a consuming service: its work queue, where failed messages wait, and where dead ones rest. */
export function queueNames(service: string): { main: string; retry: string; dlq: string } {
  return { main: service, retry: `${service}.retry`, dlq: `${service}.dlq` };
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
 * Declares `<service>` bound by each pattern, `<service>.retry` whose expired messages go back to
 * `<service>` through the default exchange (each message carries its own delay), and `<service>.dlq`.
 * Declaring is idempotent, so it runs again after every reconnect.
 */
export async function declareServiceQueues(channel: Channel, exchange: string, service: string, bindings: string[]): Promise<void> {
  const q = queueNames(service);
  await channel.assertQueue(q.main, { durable: true });
  for (const pattern of new Set(bindings)) await channel.bindQueue(q.main, exchange, pattern);
  await channel.assertQueue(q.retry, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': q.main } });
  await channel.assertQueue(q.dlq, { durable: true });
}
