import type { ChannelModel } from 'amqplib';

/**
 * How many consumers a queue has right now, on a channel of its own: asking about a queue that does not exist
 * makes the broker close the channel (404), which must not take the publishing or consuming channels with it.
 * A missing queue has no consumers.
 */
export async function countQueueConsumers(connection: ChannelModel, queue: string): Promise<number> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    const { consumerCount } = await channel.checkQueue(queue);
    return consumerCount;
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return 0;
    throw err;
  } finally {
    await channel.close().catch(() => undefined);
  }
}
