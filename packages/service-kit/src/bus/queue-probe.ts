import type { ChannelModel } from 'amqplib';

/** A queue as the broker counts it now: messages ready for a consumer, and consumers. */
export interface QueueStats {
  messages: number;
  consumers: number;
}

/**
 * A queue's counts right now, on a channel of its own: asking about a queue that does not exist makes the broker
 * close the channel (404), which must not take the publishing or consuming channels with it. A missing queue is empty.
 */
export async function queueStats(connection: ChannelModel, queue: string): Promise<QueueStats> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    const { messageCount, consumerCount } = await channel.checkQueue(queue);
    return { messages: messageCount, consumers: consumerCount };
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return { messages: 0, consumers: 0 };
    throw err;
  } finally {
    await channel.close().catch(() => undefined);
  }
}
