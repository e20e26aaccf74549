import { setTimeout as pause } from 'node:timers/promises';
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { Channel, ConsumeMessage, Options } from 'amqplib';
import type { Envelope } from '@frametext/contracts';
import type { Knex } from '../db/index.js';
import type { Logger } from '../logging/logger.js';
import { runWithContext } from '../logging/context.js';
import { decodeMessage, headerText } from './codec.js';
import type { BrokerSession } from './connection.js';
import { queueNames, retryDelay, retryQueueName } from './topology.js';
import type { Consumer } from './types.js';
import type { BusOutcome, ServiceMetrics } from '../metrics/definitions.js';
import { contextFrom } from '../tracing/tracing.js';
import { errorText } from '../errors/index.js';

export const ATTEMPT_HEADER = 'x-attempt';
export const LAST_ERROR_HEADER = 'x-last-error';
export const DEAD_REASON_HEADER = 'x-dead-letter-reason';

export interface ConsumerRunnerOptions {
  service: string;
  db: Knex;
  logger: Logger;
  prefetch: number;
  maxAttempts: number;
  /**
   * Handling starts of one attempt that may end without an answer (the worker died) before it is dead-lettered. A
   * delivery handed back unstarted (prefetched by a worker that stopped) is no start.
   */
  maxInterruptions: number;
  retryDelayMs: number;
  consumers: Consumer[];
  /** Counts what became of each message (Prometheus), when the service has metrics. */
  metrics?: Pick<ServiceMetrics, 'busMessages'>;
  /** Each message handled is a consumer span under the trace it came with. */
  tracer?: Tracer;
  /** Sends a message straight to a queue with publisher confirms (retry and dead-letter queues). */
  sendToQueue(queue: string, content: Buffer, options: Options.Publish): Promise<void>;
}

/** One delivery being handled, and whether its handling start is already counted (tries after an outage are not starts). */
interface Delivery {
  channel: Channel;
  msg: ConsumeMessage;
  startCounted: boolean;
}

function attemptOf(msg: ConsumeMessage): number {
  const n = Number(msg.properties.headers?.[ATTEMPT_HEADER]);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Headers a quorum queue adds to a message that came back: its count of deliveries. */
const BROKER_COUNT_HEADERS = ['x-delivery-count', 'x-acquired-count'];

/** The message's headers without what the broker keeps (its dead-lettering history and delivery counts). */
function ownHeaders(msg: ConsumeMessage): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...msg.properties.headers };
  for (const key of Object.keys(headers)) {
    if (key === 'x-death' || key.startsWith('x-first-death') || key.startsWith('x-last-death') || BROKER_COUNT_HEADERS.includes(key)) delete headers[key];
  }
  // Back from the retry queue, a message's routing key is the queue name; keep the one it was published with.
  headers['x-original-routing-key'] ??= msg.fields.routingKey;
  return headers;
}

/**
 * Records that handling of this message and attempt starts, in its own statement (it stays if the process dies), and
 * returns how many times it has started: more than once means earlier deliveries ended with no answer, because the
 * worker died (out of memory, killed, evicted) or lost its connection before acking. Handler errors are not counted
 * here; they go through the retry queue with the next attempt number. A message prefetched but never started is not
 * counted either. The row goes once the message is settled.
 */
async function countStart(db: Knex, messageId: string, attempt: number): Promise<number> {
  const rows: { count: number }[] = await db('interrupted_deliveries')
    .insert({ message_id: messageId, attempt, count: 1 })
    .onConflict(['message_id', 'attempt'])
    .merge({ count: db.raw('interrupted_deliveries.count + 1') })
    .returning('count');
  return rows[0]!.count;
}

async function forgetStarts(db: Knex, messageId: string): Promise<void> {
  await db('interrupted_deliveries').where({ message_id: messageId }).delete();
}

/** Runs `work` as a child span of the current one, ending it (with an error status if it throws) when it settles. */
async function inSpan<T>(tracer: Tracer, name: string, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Handles the service's queue. Each message is validated, then handled in one transaction that first
 * records its id in the inbox (a redelivery finds it there and changes nothing). It is acked only after
 * that transaction commits, or after it has been handed to the retry or dead-letter queue with confirms.
 */
export class ConsumerRunner {
  private readonly byType = new Map<string, Consumer>();
  private readonly queues;
  private readonly tracer: Tracer;
  private readonly inFlight = new Set<Promise<void>>();
  private subscription: { channel: Channel; consumerTag: string } | undefined;
  private stopping = false;
  /** Wakes messages held through an outage when the service stops. */
  private readonly stopped = new AbortController();
  private readonly closedChannels = new WeakSet<Channel>();

  constructor(private readonly opts: ConsumerRunnerOptions) {
    for (const c of opts.consumers) this.byType.set(c.type, c);
    this.queues = queueNames(opts.service);
    this.tracer = opts.tracer ?? trace.getTracer(opts.service);
  }

  bindings(): string[] {
    return this.opts.consumers.map((c) => c.binding ?? c.type);
  }

  /** Starts consuming on a fresh session (first connect and every reconnect). */
  async attach(session: BrokerSession): Promise<void> {
    const channel = session.consumer;
    if (!channel || this.stopping) return;
    channel.once('close', () => this.closedChannels.add(channel));
    await channel.prefetch(this.opts.prefetch);
    const { consumerTag } = await channel.consume(
      this.queues.main,
      (msg) => {
        if (!msg) {
          this.opts.logger.warn({ queue: this.queues.main }, 'the broker cancelled our consumer');
          return;
        }
        // Not acked: it goes back to the queue when the channel closes.
        if (this.stopping) return;
        const work = this.handle(channel, msg);
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
      },
      { noAck: false },
    );
    this.subscription = { channel, consumerTag };
  }

  /** Takes no new messages and waits for those in hand to finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    const sub = this.subscription;
    this.subscription = undefined;
    if (sub) await sub.channel.cancel(sub.consumerTag).catch(() => undefined);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Settles the message. When that fails for want of the database or the broker (the message did nothing wrong), it
   * is held and tried again every retryDelayMs until it settles or the service stops or loses the channel: handed
   * back instead, it would come straight back in a tight loop, and a quorum queue would count each return towards
   * its delivery limit and dead-letter a message that never failed.
   */
  private async handle(channel: Channel, msg: ConsumeMessage): Promise<void> {
    const delivery: Delivery = { channel, msg, startCounted: false };
    for (;;) {
      try {
        await this.settle(delivery);
        return;
      } catch (err) {
        if (this.stopping || this.closedChannels.has(channel)) return this.handBack(delivery, err);
        this.opts.logger.warn({ err: errorText(err), messageId: msg.properties.messageId, retryInMs: this.opts.retryDelayMs }, 'could not settle a message; holding it and trying again');
        await pause(this.opts.retryDelayMs, undefined, { signal: this.stopped.signal }).catch(() => undefined);
        if (this.stopping || this.closedChannels.has(channel)) return this.handBack(delivery, err);
      }
    }
  }

  /** Returns the message to the queue (the broker does so by itself if the channel is gone). */
  private handBack({ channel, msg }: Delivery, err: unknown): void {
    this.opts.logger.warn({ err: errorText(err), messageId: msg.properties.messageId }, 'could not settle a message; handed back for redelivery');
    try {
      channel.nack(msg, false, true);
    } catch {
      // Channel already closed: the broker requeues it by itself.
    }
  }

  private async settle(delivery: Delivery): Promise<void> {
    const { channel, msg } = delivery;
    const decoded = decodeMessage(msg.content);
    if (!decoded.ok) {
      this.opts.logger.error({ reason: decoded.reason, messageId: msg.properties.messageId }, 'poison message sent to the dead-letter queue');
      await this.deadLetter(msg, { [DEAD_REASON_HEADER]: headerText(decoded.reason) });
      this.ack(channel, msg);
      this.count('dead_lettered');
      return;
    }
    const envelope = decoded.envelope;
    const parent = contextFrom(msg.properties.headers);
    const span = this.tracer.startSpan(
      `process ${envelope.type}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': this.queues.main,
          'messaging.message.id': envelope.id,
          'frametext.attempt': attemptOf(msg),
        },
      },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), () =>
        runWithContext({ correlationId: envelope.correlationId, causationId: envelope.id }, () => this.handleEnvelope(delivery, envelope)),
      );
    } finally {
      span.end();
    }
  }

  private async handleEnvelope(delivery: Delivery, envelope: Envelope): Promise<void> {
    const { channel, msg } = delivery;
    const consumer = this.byType.get(envelope.type);
    if (!consumer) {
      const reason = `${this.opts.service} has no consumer for ${envelope.type}`;
      this.opts.logger.error({ eventId: envelope.id, type: envelope.type }, reason);
      await this.deadLetter(msg, { [DEAD_REASON_HEADER]: reason });
      this.ack(channel, msg);
      this.count('dead_lettered');
      return;
    }
    const attempt = attemptOf(msg);
    const log = this.opts.logger.child({ eventId: envelope.id, eventType: envelope.type, attempt });
    let interruptions = 0;
    if (!delivery.startCounted) {
      interruptions = (await countStart(this.opts.db, envelope.id, attempt)) - 1;
      delivery.startCounted = true;
    }
    if (interruptions > this.opts.maxInterruptions) {
      const reason = `its handling stopped ${interruptions} times with no answer (the worker died: out of memory, killed or evicted)`;
      log.error({ interruptions }, `message sent to the dead-letter queue: ${reason}`);
      await this.deadLetter(msg, { [DEAD_REASON_HEADER]: reason, [ATTEMPT_HEADER]: attempt });
      this.ack(channel, msg);
      this.count('dead_lettered');
      await forgetStarts(this.opts.db, envelope.id).catch(() => undefined);
      return;
    }
    if (interruptions > 0) log.warn({ interruptions }, 'handling again: an earlier delivery ended with no answer');
    try {
      let prepared: unknown;
      if (consumer.prepare) {
        // A message already handled would repeat the slow (and maybe paid) work for nothing.
        if (await this.opts.db('inbox').where({ message_id: envelope.id }).first()) {
          log.info('already handled; redelivery ignored');
          this.ack(channel, msg);
          this.count('duplicate');
          await forgetStarts(this.opts.db, envelope.id).catch(() => undefined);
          return;
        }
        const prepare = consumer.prepare;
        prepared = await inSpan(this.tracer, 'prepare', () => prepare(envelope as never, { log, attempt }));
      }
      const committed: (() => Promise<unknown>)[] = [];
      const afterCommit = (work: () => Promise<unknown>) => void committed.push(work);
      const handled = await inSpan(this.tracer, 'commit', () => this.opts.db.transaction(async (trx) => {
        const inserted = await trx('inbox').insert({ message_id: envelope.id, type: envelope.type }).onConflict('message_id').ignore().returning('message_id');
        await forgetStarts(trx, envelope.id);
        if (inserted.length === 0) return false;
        await consumer.handler(envelope as never, { trx, log, attempt, prepared, afterCommit });
        return true;
      }));
      if (!handled) log.info('already handled; redelivery ignored');
      this.ack(channel, msg);
      this.count(handled ? 'handled' : 'duplicate');
      for (const work of committed) {
        await work().catch((err: unknown) => log.warn({ err }, 'work after the commit failed; what it left is for the service\'s own jobs'));
      }
    } catch (err) {
      const lastError = headerText(errorText(err));
      this.count('failed');
      if (attempt >= this.opts.maxAttempts) {
        log.error({ err }, `handler failed ${attempt} times; message sent to the dead-letter queue`);
        await this.deadLetter(msg, { [LAST_ERROR_HEADER]: lastError, [DEAD_REASON_HEADER]: `handler failed ${attempt} times`, [ATTEMPT_HEADER]: attempt });
        this.count('dead_lettered');
      } else {
        const delay = retryDelay(this.opts.retryDelayMs, attempt);
        log.warn({ err, retryInMs: delay }, 'handler failed; will retry');
        await this.opts.sendToQueue(retryQueueName(this.opts.service, delay), msg.content, {
          ...this.republishProperties(msg),
          headers: { ...ownHeaders(msg), [ATTEMPT_HEADER]: attempt + 1, [LAST_ERROR_HEADER]: lastError },
        });
        this.count('retried');
      }
      this.ack(channel, msg);
      await forgetStarts(this.opts.db, envelope.id).catch(() => undefined);
    }
  }

  private count(outcome: BusOutcome): void {
    this.opts.metrics?.busMessages.inc({ queue: this.queues.main, outcome });
    const span: Span | undefined = trace.getActiveSpan();
    span?.setAttribute('frametext.outcome', outcome);
    if (outcome === 'failed' || outcome === 'dead_lettered') span?.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
  }

  private async deadLetter(msg: ConsumeMessage, headers: Record<string, unknown>): Promise<void> {
    await this.opts.sendToQueue(this.queues.dlq, msg.content, {
      ...this.republishProperties(msg),
      headers: { ...ownHeaders(msg), ...headers },
    });
  }

  private republishProperties(msg: ConsumeMessage): Options.Publish {
    const p = msg.properties;
    return {
      persistent: true,
      contentType: p.contentType ?? 'application/json',
      ...(p.messageId ? { messageId: String(p.messageId) } : {}),
      ...(p.type ? { type: String(p.type) } : {}),
      ...(p.correlationId ? { correlationId: String(p.correlationId) } : {}),
      ...(p.timestamp ? { timestamp: Number(p.timestamp) } : {}),
    };
  }

  private ack(channel: Channel, msg: ConsumeMessage): void {
    try {
      channel.ack(msg);
    } catch (err) {
      // The channel died after the effect committed: the broker redelivers and the inbox turns it into a no-op.
      this.opts.logger.warn({ err: errorText(err), messageId: msg.properties.messageId }, 'ack failed; the message will be redelivered and skipped');
    }
  }
}
