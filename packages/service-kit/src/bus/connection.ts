import { connect, type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { errorText, unavailable } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';

/** One live connection: a confirm channel for everything we publish and, for consumers, a channel to consume on. */
export interface BrokerSession {
  connection: ChannelModel;
  publisher: ConfirmChannel;
  consumer: Channel | undefined;
}

export interface BrokerLinkOptions {
  url: string;
  /** Shown as the connection's name in the RabbitMQ management UI. */
  name: string;
  logger: Logger;
  /** Asked at each connect, since consumers are known only once the bus starts. */
  wantsConsumerChannel(): boolean;
  /** Declares topology and starts consuming on a fresh session, before anyone may use it. */
  setup(session: BrokerSession): Promise<void>;
  /** Called each time a session becomes usable (first connect and every reconnect). */
  onReady?(): void;
}

const MIN_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;

function backoff(attempt: number): number {
  const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempt);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Keeps one connection to RabbitMQ alive: when the connection or one of its channels drops (broker restart,
 * channel error), it reconnects with backoff and runs `setup` again, so topology and consumers come back.
 */
export class BrokerLink {
  private session: BrokerSession | undefined;
  private closing = false;
  private loop: Promise<void> | undefined;
  private waiters = new Set<{ resolve: (s: BrokerSession) => void; reject: (e: Error) => void }>();
  private wake: (() => void) | undefined;

  constructor(private readonly opts: BrokerLinkOptions) {}

  /** Connects, retrying until `timeoutMs` has passed; then throws the last error. */
  async start(timeoutMs: number): Promise<void> {
    this.loop = this.connectLoop(Date.now() + timeoutMs);
    await this.loop;
  }

  current(): BrokerSession | undefined {
    return this.session;
  }

  /** The live session, waiting up to `timeoutMs` for a reconnect if there is none right now. */
  waitReady(timeoutMs: number): Promise<BrokerSession> {
    if (this.session) return Promise.resolve(this.session);
    if (this.closing) return Promise.reject(unavailable('bus/closed', 'The message bus is closed.'));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (s: BrokerSession) => {
          clearTimeout(timer);
          resolve(s);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(unavailable('bus/unavailable', `The message broker was not reachable within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.wake?.();
    await this.loop?.catch(() => undefined);
    const session = this.session;
    this.session = undefined;
    for (const w of this.waiters) w.reject(unavailable('bus/closed', 'The message bus is closed.'));
    this.waiters.clear();
    if (session) {
      // Closing a channel waits for the broker's answer, by which it has processed every ack sent before: a
      // connection closed at once can drop the acks of the last messages handled, which then come back.
      await session.consumer?.close().catch(() => undefined);
      await session.publisher.close().catch(() => undefined);
      await session.connection.close().catch(() => undefined);
    }
  }

  private async connectLoop(deadline?: number): Promise<void> {
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        await this.connectOnce();
        return;
      } catch (err) {
        const delay = backoff(attempt);
        if (deadline !== undefined && Date.now() + delay > deadline) throw err;
        this.opts.logger.warn({ err: errorText(err), attempt: attempt + 1, retryInMs: delay }, 'message broker not reachable; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private async connectOnce(): Promise<void> {
    const connection = await connect(this.opts.url, { timeout: 10_000, clientProperties: { connection_name: this.opts.name } });
    let dead = false;
    try {
      const publisher = await connection.createConfirmChannel();
      const consumer = this.opts.wantsConsumerChannel() ? await connection.createChannel() : undefined;
      const session: BrokerSession = { connection, publisher, consumer };
      const onClose = (what: string) => (err?: Error) => {
        if (dead) return;
        dead = true;
        this.lost(session, what, err);
      };
      const onError = (what: string) => (err: Error) => this.opts.logger.warn({ err: errorText(err) }, `message broker ${what} error`);
      connection.on('error', onError('connection'));
      connection.on('close', onClose('connection'));
      for (const [what, ch] of [['publish channel', publisher], ['consume channel', consumer]] as const) {
        ch?.on('error', onError(what));
        ch?.on('close', onClose(what));
      }
      await this.opts.setup(session);
      if (dead) throw new Error('connection closed during setup');
      if (this.closing) {
        dead = true;
        await connection.close().catch(() => undefined);
        return;
      }
      this.session = session;
      for (const w of this.waiters) w.resolve(session);
      this.waiters.clear();
      this.opts.logger.info('connected to the message broker');
      this.opts.onReady?.();
    } catch (err) {
      dead = true;
      await connection.close().catch(() => undefined);
      throw err;
    }
  }

  private lost(session: BrokerSession, what: string, err?: Error): void {
    if (this.session !== session) return;
    this.session = undefined;
    // A lone channel can die while its connection lives on; start over with a fresh connection either way.
    void session.connection.close().catch(() => undefined);
    if (this.closing) return;
    this.opts.logger.warn({ err: err ? errorText(err) : undefined }, `message broker ${what} closed; reconnecting`);
    this.loop = this.connectLoop();
    this.loop.catch((e: unknown) => this.opts.logger.error({ err: errorText(e) }, 'message broker reconnect gave up'));
  }
}
