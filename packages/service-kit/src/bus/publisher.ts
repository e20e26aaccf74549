import type { ConfirmChannel, Options } from 'amqplib';
import type { BrokerLink } from './connection.js';

function confirmPublish(channel: ConfirmChannel, exchange: string, routingKey: string, content: Buffer, options: Options.Publish): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(exchange, routingKey, content, options, (err: unknown) => (err ? reject(err instanceof Error ? err : new Error(`broker refused the message: ${String(err)}`)) : resolve()));
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * Publishes and waits for the broker's confirm. If the connection drops on the way, it tries again on the
 * next connection until `timeoutMs` is spent, then throws. A message may thus arrive twice; consumers dedupe.
 */
export async function publishConfirmed(link: BrokerLink, timeoutMs: number, exchange: string, routingKey: string, content: Buffer, options: Options.Publish): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw lastError instanceof Error ? lastError : new Error('publish timed out');
    const session = await link.waitReady(remaining);
    try {
      await confirmPublish(session.publisher, exchange, routingKey, content, options);
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, deadline - Date.now()))));
    }
  }
}
