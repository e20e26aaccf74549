import type { Envelope } from '@frametext/contracts';
import { unavailable } from '../errors/index.js';
import { checkEnvelope, encodeEnvelope, envelopeProperties } from './codec.js';
import { BrokerLink, type BrokerSession } from './connection.js';
import { ConsumerRunner } from './consumer.js';
import { publishConfirmed } from './publisher.js';
import { queueStats } from './queue-probe.js';
import { OutboxRelay } from './relay.js';
import { declareExchange, declareServiceQueues, requeueExchangeName, urgentQueueName } from './topology.js';
import type { Bus, BusOptions, Consumer } from './types.js';
import type { TraceCarrier } from '../tracing/tracing.js';

export { assertConsumers } from './assert-consumers.js';
export { queueNames, urgentQueueName } from './topology.js';
export { ATTEMPT_HEADER, DEAD_REASON_HEADER, LAST_ERROR_HEADER } from './consumer.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;
const DEFAULT_RELAY_SWEEP_MS = 2_000;
/** Messages in hand from the urgent queue: few arrive, and each is a short transaction. */
const URGENT_PREFETCH = 8;

/**
 * The service's message bus: one durable topic exchange; for a consuming service its queue, retry queue
 * and dead-letter queue; consumers with an inbox; and the outbox relay. Survives broker restarts.
 */
export function createBus(opts: BusOptions): Bus {
  const log = opts.logger.child({ component: 'bus' });
  const publishTimeoutMs = opts.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  // The work queue's runner and, for consumers marked urgent, the urgent queue's; both consume on one channel, each
  // with its own prefetch (RabbitMQ applies a channel's prefetch per consumer).
  let runners: { queue: string; runner: ConsumerRunner }[] = [];
  let relay: OutboxRelay | undefined;
  let started = false;
  let closing: Promise<void> | undefined;

  const link = new BrokerLink({
    url: opts.url,
    name: opts.service,
    logger: log,
    wantsConsumerChannel: () => runners.length > 0,
    async setup(session: BrokerSession) {
      const queues = { type: opts.queueType ?? 'quorum', maxInterruptions: opts.maxInterruptions };
      const kept = (await declareExchange({ connection: session.connection, channel: session.publisher, queues }, opts.exchange)).kept;
      const consumer = session.consumer;
      if (consumer) {
        const policy = { retryDelayMs: opts.retryDelayMs, maxAttempts: opts.maxAttempts };
        for (const { queue, runner } of runners) {
          const declared = await declareServiceQueues({ connection: session.connection, channel: consumer, queues }, opts.exchange, queue, runner.bindings(), policy);
          kept.push(...declared.kept);
          await runner.attach(session);
        }
      }
      if (kept.length > 0) {
        log.warn({ queues: kept, wanted: queues.type }, 'queues exist with other arguments than this release declares (classic queues of an earlier release?) and are kept as they are: see docs/operations.md, Moving to quorum queues');
      }
    },
    onReady() {
      void relay?.kick();
    },
  });

  const publish = async (envelope: Envelope, routingKey = envelope.type, trace?: TraceCarrier): Promise<void> => {
    const checked = checkEnvelope(envelope);
    if (!checked.ok) throw new Error(`refusing to publish ${String(envelope.type)} ${String(envelope.id)}: ${checked.reason}`);
    await publishConfirmed(link, publishTimeoutMs, opts.exchange, routingKey, encodeEnvelope(envelope), envelopeProperties(envelope, trace));
  };

  return {
    async start(consumers: Consumer[] = []) {
      if (started) throw new Error('bus already started');
      started = true;
      if (consumers.length > 0) {
        const db = opts.db;
        if (!db) throw new Error(`${opts.service} has consumers but no database for their inbox`);
        const runnerFor = (queue: string, prefetch: number, of: Consumer[]) => ({
          queue,
          runner: new ConsumerRunner({
            service: queue,
            db,
            logger: log,
            prefetch,
            maxAttempts: opts.maxAttempts,
            maxInterruptions: opts.maxInterruptions,
            metrics: opts.metrics,
            tracer: opts.tracer,
            retryDelayMs: opts.retryDelayMs,
            consumers: of,
            sendToQueue: (target, content, options) => publishConfirmed(link, publishTimeoutMs, requeueExchangeName(queue), target, content, options),
          }),
        });
        const work = consumers.filter((c) => !c.urgent);
        const urgentOnes = consumers.filter((c) => c.urgent);
        // The urgent queue is attached first: at a (re)connect, a deletion waiting there is taken before the work it stops.
        runners = [
          ...(urgentOnes.length > 0 ? [runnerFor(urgentQueueName(opts.service), URGENT_PREFETCH, urgentOnes)] : []),
          ...(work.length > 0 ? [runnerFor(opts.service, opts.prefetch, work)] : []),
        ];
      }
      if (opts.db) {
        relay = new OutboxRelay({
          db: opts.db,
          logger: log,
          sweepMs: opts.relaySweepMs ?? DEFAULT_RELAY_SWEEP_MS,
          publish,
          isConnected: () => link.current() !== undefined,
        });
      }
      await link.start(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
      await relay?.start();
    },

    publish,

    async flushOutbox() {
      if (!relay) throw new Error('the outbox relay runs only on a started bus with a database');
      return relay.flush();
    },

    async ping() {
      if (!link.current()) throw unavailable('bus/unavailable', 'Not connected to the message broker.');
    },

    async queueStats(queue: string) {
      const session = link.current();
      if (!session) throw unavailable('bus/unavailable', 'Not connected to the message broker.');
      return queueStats(session.connection, queue);
    },

    close() {
      return (closing ??= (async () => {
        await Promise.all(runners.map(({ runner }) => runner.stop()));
        await relay?.stop();
        await link.close();
      })());
    },
  };
}
