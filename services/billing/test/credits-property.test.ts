// Credits always come back, whatever the order: random interleavings of reservations, every event that ends an upload,
// sweeps, purchases, redeliveries and crashed handlers, run against billing's own use cases and consumers on the real
// Postgres, with the books checked after every step.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type Stripe from 'stripe';
import { CREDIT_PACKS, type Envelope, type EventData, type EventType, type ServerEngine } from '@frametext/contracts';
import { AppError, buildEnvelope, busMigrations, createDb, engineAvailability, migrate, parseConfig, type Consumer, type Knex } from '@frametext/service-kit';
import { TEST_DATABASE_URL, testEnv, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { configSchema } from '../src/config.js';
import { billingMigrations } from '../src/data/migrations.js';
import type { BillingContext } from '../src/domain/context.js';
import { creditPaidSession } from '../src/domain/purchases.js';
import { reserveCredits } from '../src/domain/reservations.js';
import { releaseAbandonedReservations } from '../src/domain/settlement.js';
import { billingConsumers } from '../src/messaging/consumers.js';

const USERS = 2;
const UPLOADS = 4;
const log = testLogger('credits-property');

let db: Knex;
let schema: string;
let ctx: BillingContext;
let handlers: Map<string, Consumer['handler']>;

beforeAll(async () => {
  schema = uniqueName('billing_property');
  db = createDb(TEST_DATABASE_URL, schema, { max: 4 });
  await migrate(db, schema, [...busMigrations, ...billingMigrations]);
  ctx = { config: parseConfig(configSchema, testEnv()), db, logger: log, payments: null, engines: engineAvailability({ queueConsumers: async () => 0, cloudQueue: 'ocr-cloud' }) };
  handlers = new Map(billingConsumers(ctx).map((c) => [c.type, c.handler]));
});

afterAll(async () => {
  await db?.raw('drop schema if exists ?? cascade', [schema]);
  await db?.destroy();
});

/** One step of what the rest of the system does with an upload: upload asks billing to hold credits, or a service publishes an event. */
type Act = 'reserve' | 'completed' | 'cancelled' | 'failed-upload' | 'processed' | 'failed-pipeline' | 'deleted';

/**
 * The lives an upload can have, each in the order its services act. Billing may handle the published events in any
 * other order (they come from different services' outboxes, and retries reorder them).
 */
const LIVES: Record<string, Act[]> = {
  processed: ['reserve', 'completed', 'processed'],
  'processed, then deleted': ['reserve', 'completed', 'processed', 'deleted'],
  'deleted mid-processing': ['reserve', 'completed', 'deleted'],
  // frame-extraction then finds its source gone and fails it.
  'deleted mid-processing, then failed': ['reserve', 'completed', 'deleted', 'failed-pipeline'],
  // frame-extraction and results' watchdog both fail it; the owner deletes it later.
  'failed in the pipeline': ['reserve', 'completed', 'failed-pipeline', 'failed-pipeline', 'deleted'],
  'failed at uploadComplete': ['reserve', 'failed-upload', 'deleted'],
  // getUploadURL failed after billing answered, or the upload was abandoned.
  'cancelled after the hold': ['reserve', 'cancelled'],
  // billing's answer was lost: upload cancels, and billing may handle the cancel before the reservation.
  'cancel overtakes the hold': ['cancelled', 'reserve'],
  'still processing': ['reserve', 'completed'],
  'never completed (left to the sweep)': ['reserve'],
};
const ENDING: ReadonlySet<string> = new Set<EventType>(['upload.processed.v1', 'upload.failed.v1', 'upload.cancelled.v1', 'upload.deleted.v1']);

interface Upload {
  id: string;
  userId: string;
  engine: ServerEngine;
  frames: number;
  framesProcessed: number;
  life: string;
  /** How many of its life's acts have happened. */
  done: number;
  reserve: 'not-asked' | 'held' | 'refused';
}

interface World {
  users: string[];
  uploads: Upload[];
  /** Published, not handled yet: billing takes them in any order. */
  pending: Envelope[];
  /** Handled and committed. */
  handled: Envelope[];
  /** Uploads for which an event that ends them (processed, failed, cancelled, deleted) has committed. */
  ended: Set<string>;
  /** Checkout sessions paid (Stripe may report one again). */
  sessions: { id: string; userId: string }[];
}

/** What billing does next. */
type Step =
  | { do: 'act'; upload: number }
  | { do: 'deliver'; pick: number; crash: boolean }
  | { do: 'replay'; pick: number; sameId: boolean }
  | { do: 'sweep'; hoursLater: number }
  | { do: 'purchase'; user: number; again: boolean };

class Crash extends Error {}

/** What the consumer runner does with one message: the inbox row and the handler in one transaction, or nothing. */
async function handle(envelope: Envelope, opts: { crash?: boolean } = {}): Promise<'handled' | 'duplicate' | 'crashed'> {
  try {
    return await db.transaction(async (trx) => {
      const inserted = await trx('inbox').insert({ message_id: envelope.id, type: envelope.type }).onConflict('message_id').ignore().returning('message_id');
      if (inserted.length === 0) return 'duplicate';
      await handlers.get(envelope.type)!(envelope as never, { trx, log, attempt: 1, afterCommit: () => undefined });
      // The worker dies after the handler's work and before the commit: all of it rolls back.
      if (opts.crash) throw new Crash();
      return 'handled';
    });
  } catch (err) {
    if (err instanceof Crash) return 'crashed';
    throw err;
  }
}

async function deliver(w: World, index: number, crash: boolean): Promise<void> {
  const envelope = w.pending[index]!;
  // A crashed handler leaves the message waiting, to be delivered again (by then perhaps after others).
  if ((await handle(envelope, { crash })) === 'crashed') return;
  w.pending.splice(index, 1);
  w.handled.push(envelope);
  if (ENDING.has(envelope.type)) w.ended.add((envelope.data as { uploadId: string }).uploadId);
}

function eventFor(u: Upload, act: Exclude<Act, 'reserve'>): Envelope {
  const ids = { uploadId: u.id, userId: u.userId };
  switch (act) {
    case 'completed':
      return buildEnvelope('upload.completed.v1', completedData(u));
    case 'cancelled':
      return buildEnvelope('upload.cancelled.v1', { ...ids, reason: 'start-failed' });
    case 'failed-upload':
      return buildEnvelope('upload.failed.v1', { ...ids, reason: 'The file is not a video.', stage: 'upload' });
    case 'processed':
      return buildEnvelope('upload.processed.v1', { ...ids, framesProcessed: u.framesProcessed, engine: u.engine });
    case 'failed-pipeline':
      return buildEnvelope('upload.failed.v1', { ...ids, reason: 'Processing stopped.', stage: 'extraction' });
    case 'deleted':
      // Deleted mid-processing, it is charged for the frames read by then.
      return buildEnvelope('upload.deleted.v1', { ...ids, framesRead: u.framesProcessed });
  }
}

function completedData(u: Upload): EventData<'upload.completed.v1'> {
  return {
    uploadId: u.id,
    userId: u.userId,
    uploadName: 'run',
    kind: 'video',
    objectKeys: [`uploads/${u.id}/source/video.mp4`],
    mimeType: 'video/mp4',
    fileNames: null,
    timestamps: null,
    engine: u.engine,
    mediaContent: 'numerical',
    intervalSeconds: 1,
    slideDetection: false,
    sortPreference: null,
    maxFrames: u.frames,
    creditCost: 1,
    originalLanguage: null,
    targetLanguage: null,
    durationSeconds: u.frames,
    createdAt: new Date().toISOString(),
  };
}

/** The upload's next act: upload reserves (answered at once), or a service publishes an event. */
async function act(w: World, u: Upload): Promise<void> {
  const next = LIVES[u.life]![u.done];
  if (!next) return;
  u.done += 1;
  if (next !== 'reserve') {
    w.pending.push(eventFor(u, next));
    return;
  }
  try {
    await reserveCredits(ctx, { uploadId: u.id, userId: u.userId, engine: u.engine, frames: u.frames });
    u.reserve = 'held';
  } catch (err) {
    // 402: nothing left to hold; 409: the cancel got there first.
    if (!(err instanceof AppError) || (err.status !== 402 && err.status !== 409)) throw err;
    u.reserve = 'refused';
  }
  // upload's events after the hold are published only if billing held credits (a refused start goes no further).
  if (u.reserve === 'refused' && u.done === 1) u.done = LIVES[u.life]!.length;
}

async function run(w: World, step: Step): Promise<void> {
  switch (step.do) {
    case 'act':
      return act(w, w.uploads[step.upload % w.uploads.length]!);
    case 'deliver':
      if (w.pending.length > 0) await deliver(w, step.pick % w.pending.length, step.crash);
      return;
    case 'replay': {
      if (w.handled.length === 0) return;
      const envelope = w.handled[step.pick % w.handled.length]!;
      // The same id is the broker's redelivery; a new id is a service that published the same fact twice.
      const outcome = await handle(step.sameId ? envelope : { ...envelope, id: randomUUID() });
      if (step.sameId) expect(outcome).toBe('duplicate');
      return;
    }
    case 'sweep':
      await releaseAbandonedReservations(ctx, new Date(Date.now() + step.hoursLater * 3_600_000));
      return;
    case 'purchase': {
      if (step.again && w.sessions.length === 0) return;
      const pack = CREDIT_PACKS[0]!;
      const session = step.again ? w.sessions[step.user % w.sessions.length]! : { id: `cs_sim_${randomUUID().replace(/-/g, '')}`, userId: w.users[step.user % w.users.length]! };
      if (!step.again) w.sessions.push(session);
      const paid = { id: session.id, metadata: { userId: session.userId, credits: String(pack.credits) }, amount_total: pack.priceCents, currency: 'usd', payment_intent: `pi_${session.id}` };
      await db.transaction((trx) => creditPaidSession(trx, paid as unknown as Stripe.Checkout.Session, 'simulated', log));
      return;
    }
  }
}

async function checkBooks(w: World): Promise<void> {
  const accounts = await db.raw<{ rows: { user_id: string; balance: number; ledger_sum: string; added: string; captured: string; held: string }[] }>(`
    select a.user_id, a.balance,
      (select coalesce(sum(balance_delta), 0) from ledger l where l.user_id = a.user_id) as ledger_sum,
      (select coalesce(sum(credits), 0) from ledger l where l.user_id = a.user_id and kind in ('grant', 'purchase')) as added,
      (select coalesce(sum(credits), 0) from ledger l where l.user_id = a.user_id and kind = 'capture') as captured,
      (select coalesce(sum(credits_reserved), 0) from reservations r where r.user_id = a.user_id and status in ('held', 'confirmed')) as held
    from accounts a`);
  expect(accounts.rows).toHaveLength(USERS);
  for (const a of accounts.rows) {
    expect(a.balance, `balance of ${a.user_id} never below zero`).toBeGreaterThanOrEqual(0);
    expect(a.balance, `balance of ${a.user_id} equals its ledger`).toBe(Number(a.ledger_sum));
    expect(a.balance, `balance of ${a.user_id} = grant + purchases - captured - held`).toBe(Number(a.added) - Number(a.captured) - Number(a.held));
  }

  const reservations = await db.raw<{ rows: { upload_id: string; status: string; reserved: number; captured: number; released: number; reserves: string; captures: string; releases: string; reserve_credits: string; capture_credits: string; release_credits: string }[] }>(`
    select r.upload_id, r.status, r.credits_reserved as reserved, r.credits_captured as captured, r.credits_released as released,
      count(*) filter (where l.kind = 'reserve') as reserves,
      count(*) filter (where l.kind = 'capture') as captures,
      count(*) filter (where l.kind = 'release') as releases,
      coalesce(sum(l.credits) filter (where l.kind = 'reserve'), 0) as reserve_credits,
      coalesce(sum(l.credits) filter (where l.kind = 'capture'), 0) as capture_credits,
      coalesce(sum(l.credits) filter (where l.kind = 'release'), 0) as release_credits
    from reservations r left join ledger l on l.upload_id = r.upload_id
    group by r.upload_id`);
  for (const r of reservations.rows) {
    const what = `reservation of ${r.upload_id} (${r.status})`;
    expect(Number(r.reserves), `${what}: one reserve movement`).toBe(1);
    expect(Number(r.reserve_credits), `${what}: reserve movement = reservation`).toBe(r.reserved);
    // Settled twice would mean a second capture or release (or movements that disagree with the row).
    expect(Number(r.captures), `${what}: captured at most once`).toBeLessThanOrEqual(1);
    expect(Number(r.releases), `${what}: released at most once`).toBeLessThanOrEqual(1);
    expect(Number(r.capture_credits), `${what}: capture movement = credits_captured`).toBe(r.captured);
    expect(Number(r.release_credits), `${what}: release movement = credits_released`).toBe(r.released);
    if (r.status === 'settled') expect(r.captured + r.released, `${what}: capture + release = reservation`).toBe(r.reserved);
    else expect(r.captured + r.released, `${what}: nothing settled yet`).toBe(0);
  }
  const strays = await db('ledger').whereNotNull('upload_id').whereNotIn('upload_id', db('reservations').select('upload_id')).count({ n: '*' }).first();
  expect(Number(strays?.n), 'no movement for an upload without a reservation').toBe(0);
  for (const u of w.uploads) {
    if (u.reserve === 'refused') expect(await db('reservations').where({ upload_id: u.id }).first(), `refused ${u.id} holds nothing`).toBeUndefined();
  }
}

async function newWorld(uploads: Omit<Upload, 'id' | 'userId' | 'done' | 'reserve'>[]): Promise<World> {
  await db.raw('truncate ledger, reservations, cancelled_uploads, checkout_sessions, accounts, inbox');
  const users = Array.from({ length: USERS }, () => randomUUID());
  const world: World = {
    users,
    uploads: uploads.map((u, i) => ({ ...u, id: randomUUID(), userId: users[i % USERS]!, done: 0, reserve: 'not-asked' })),
    pending: [],
    handled: [],
    ended: new Set(),
    sessions: [],
  };
  for (const uid of users) {
    await handle(buildEnvelope('user.created.v1', { uid, email: `${uid.slice(0, 8)}@example.com`, createdAt: new Date().toISOString() }));
    await handle(buildEnvelope('user.email-confirmed.v1', { uid, confirmedAt: new Date().toISOString() }));
  }
  return world;
}

const uploadArb = fc.record({
  life: fc.constantFrom(...Object.keys(LIVES)),
  engine: fc.constantFrom<ServerEngine>('server', 'cloud'),
  frames: fc.integer({ min: 1, max: 360 }),
  framesProcessed: fc.nat({ max: 360 }),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ do: fc.constant('act' as const), upload: fc.nat({ max: UPLOADS - 1 }) }), weight: 4 },
  { arbitrary: fc.record({ do: fc.constant('deliver' as const), pick: fc.nat(), crash: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ do: fc.constant('replay' as const), pick: fc.nat(), sameId: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ do: fc.constant('sweep' as const), hoursLater: fc.integer({ min: 0, max: 12 }) }), weight: 1 },
  { arbitrary: fc.record({ do: fc.constant('purchase' as const), user: fc.nat({ max: USERS - 1 }), again: fc.boolean() }), weight: 1 },
);

describe('credits under any interleaving of reservations, pipeline events, sweeps and redeliveries', () => {
  it('keep the books right after every step, and leave no ended upload holding credits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(uploadArb, { minLength: UPLOADS, maxLength: UPLOADS }), fc.array(stepArb, { maxLength: 40 }), async (uploads, steps) => {
        const world = await newWorld(uploads);
        for (const step of steps) {
          await run(world, step);
          await checkBooks(world);
        }
        // In the end every upload lives its whole life, and everything published is handled (the bus retries until it is).
        for (const u of world.uploads) while (u.done < LIVES[u.life]!.length) await act(world, u);
        while (world.pending.length > 0) await deliver(world, 0, false);
        await checkBooks(world);
        for (const id of world.ended) {
          const r = await db('reservations').where({ upload_id: id }).first();
          expect(r === undefined || r.status === 'settled', `ended upload ${id} holds nothing (${r?.status})`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
