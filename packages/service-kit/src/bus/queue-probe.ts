import type { ChannelModel } from 'amqplib';

/** A queue as the broker counts it now: messages ready for a consumer, and consumers. */
export interface QueueStats {
  messages: number;
  consumers: number;
}

/**
 * A queue's counts right now, or undefined when it does not exist, asked on a channel of its own: asking about a
 * missing queue makes the broker close the channel (404), which must not take the publishing or consuming channels
 * with it.
 */
export async function checkQueue(connection: ChannelModel, queue: string): Promise<QueueStats | undefined> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    const { messageCount, consumerCount } = await channel.checkQueue(queue);
    return { messages: messageCount, consumers: consumerCount };
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return undefined;
    throw err;
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** A queue's counts right now; a missing queue is empty. */
export async function queueStats(connection: ChannelModel, queue: string): Promise<QueueStats> {
  return (await checkQueue(connection, queue)) ?? { messages: 0, consumers: 0 };
}
