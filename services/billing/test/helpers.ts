import { randomUUID } from 'node:crypto';
import type { Envelope, EventData, EventType, ReserveCreditsRequest } from '@frametext/contracts';
import { startTestService, type Answer, type RequestOptions, type ServiceUnderTest } from '@frametext/service-kit/testing';
import { configSchema, type BillingConfig } from '../src/config.js';
import type { BillingContext } from '../src/domain/context.js';
import { ledgerBalance, ledgerOf, type LedgerEntry } from '../src/data/ledger.js';
import { billingService } from '../src/service.js';

export type { Answer };

export interface TestBilling {
  service: ServiceUnderTest<BillingConfig>;
  url: string;
  config: BillingConfig;
  ctx: BillingContext;
  /** The test's own view of the service's schema. */
  db: ServiceUnderTest<BillingConfig>['db'];
  /** GET, as `userId` (their access token) when given. */
  get(path: string, userId?: string): Promise<Answer>;
  post(path: string, body: unknown, opts?: { raw?: string; contentType?: string }): Promise<Answer>;
  send(method: string, path: string, opts?: RequestOptions): Promise<Answer>;
  /** POST /internal/credits/reserve as the upload service does it: its workload token and the user's own token. */
  reserve(req: ReserveCreditsRequest): Promise<Answer>;
  /** Publishes an envelope as it is, as another service's relay would. */
  publish(envelope: Envelope): Promise<void>;
  /** Publishes an event and waits until the service has handled it (its id is in the inbox). */
  deliver<T extends EventType>(type: T, data: EventData<T>): Promise<Envelope<EventData<T>>>;
  waitHandled(envelopeId: string): Promise<void>;
  /** A new user whose e-mail is confirmed, with the free grant already handled. */
  newUser(): Promise<string>;
  balance(userId: string): Promise<number>;
  ledgerBalance(userId: string): Promise<number>;
  ledger(userId: string): Promise<LedgerEntry[]>;
  reservation(uploadId: string): Promise<Record<string, unknown> | undefined>;
  stop(): Promise<void>;
}

export function userCreated(uid = randomUUID()): EventData<'user.created.v1'> {
  return { uid, email: `${uid.slice(0, 8)}@example.com`, createdAt: new Date().toISOString() };
}

export function emailConfirmed(uid: string): EventData<'user.email-confirmed.v1'> {
  return { uid, confirmedAt: new Date().toISOString() };
}

/** The billing service in-process on the real Postgres and RabbitMQ, under names of its own. */
export async function startBilling(env: Record<string, string> = {}): Promise<TestBilling> {
  let ctx: BillingContext | undefined;
  const service = await startTestService({
    role: 'billing',
    configSchema,
    env,
    define: (config, t) => billingService(config, { name: t.name, dbSchema: t.schema, logger: t.logger, onContext: (c) => (ctx = c) }),
  });
  const { db } = service;

  return {
    service,
    url: service.url,
    config: service.config,
    ctx: ctx!,
    db,
    get: (path, userId) => service.get(path, { user: userId }),
    post: (path, body, opts = {}) => service.request('POST', path, opts.raw === undefined ? { body } : { raw: opts.raw, contentType: opts.contentType }),
    send: (method, path, opts) => service.request(method, path, opts),
    reserve: (req) => service.post('/internal/credits/reserve', req, { user: req.userId, workload: 'upload' }),
    publish: (envelope) => service.publishEnvelope(envelope),
    deliver: (type, data) => service.deliver(type, data),
    waitHandled: (id) => service.waitHandled(id),
    async newUser() {
      const user = userCreated();
      await service.deliver('user.created.v1', user);
      await service.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));
      return user.uid;
    },
    async balance(userId) {
      const row = await db('accounts').where({ user_id: userId }).first('balance');
      return row ? Number(row.balance) : 0;
    },
    ledgerBalance: (userId) => ledgerBalance(db, userId),
    ledger: (userId) => ledgerOf(db, userId),
    reservation: (uploadId) => db('reservations').where({ upload_id: uploadId }).first(),
    stop: () => service.stop(),
  };
}
