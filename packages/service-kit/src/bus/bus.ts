import type { Envelope } from '@frametext/contracts';
import { unavailable } from '../errors/index.js';
import { checkEnvelope, encodeEnvelope, envelopeProperties } from './codec.js';
import { BrokerLink, type BrokerSession } from './connection.js';
import { ConsumerRunner } from './consumer.js';
import { publishConfirmed } from './publisher.js';
import { queueStats } from './queue-probe.js';
import { OutboxRelay } from './relay.js';
import { declareExchange, declareServiceQueues } from './topology.js';
import type { Bus, BusOptions, Consumer } from './types.js';
import type { TraceCarrier } from '../tracing/tracing.js';

export { assertConsumers } from './assert-consumers.js';
export { queueNames } from './topology.js';
export { ATTEMPT_HEADER, DEAD_REASON_HEADER, LAST_ERROR_HEADER } from './consumer.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;
const DEFAULT_RELAY_SWEEP_MS = 2_000;

/**
 * The service's message bus: one durable topic exchange; for a consuming service its queue, retry queue
 * and dead-letter queue; consumers with an inbox; and the outbox relay. Survives broker restarts.
 */
export function createBus(opts: BusOptions): Bus {
  const log = opts.logger.child({ component: 'bus' });
  const publishTimeoutMs = opts.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  let runner: ConsumerRunner | undefined;
  let relay: OutboxRelay | undefined;
  let started = false;
  let closing: Promise<void> | undefined;

  const link = new BrokerLink({
    url: opts.url,
    name: opts.service,
    logger: log,
    wantsConsumerChannel: () => runner !== undefined,
    async setup(session: BrokerSession) {
      await declareExchange(session.publisher, opts.exchange);
      if (runner && session.consumer) {
        await declareServiceQueues(session.consumer, opts.exchange, opts.service, runner.bindings(), { retryDelayMs: opts.retryDelayMs, maxAttempts: opts.maxAttempts });
        await runner.attach(session);
      }
    },
    onReady() {
      relay?.kick();
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
        if (!opts.db) throw new Error(`${opts.service} has consumers but no database for their inbox`);
        runner = new ConsumerRunner({
          service: opts.service,
          db: opts.db,
          logger: log,
          prefetch: opts.prefetch,
          maxAttempts: opts.maxAttempts,
          maxInterruptions: opts.maxInterruptions,
          metrics: opts.metrics,
          tracer: opts.tracer,
          retryDelayMs: opts.retryDelayMs,
          consumers,
          sendToQueue: (queue, content, options) => publishConfirmed(link, publishTimeoutMs, '', queue, content, options),
        });
      }
      if (opts.db) {
        relay = new OutboxRelay({
          db: opts.db,
          schema: opts.schema,
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
        await runner?.stop();
        await relay?.stop();
        await link.close();
      })());
    },
  };
}
