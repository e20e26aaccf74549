import type { Migration } from '@frametext/service-kit';

/**
 * accounts.balance is the sum of ledger.balance_delta for the user, kept in the same transaction as every
 * ledger row (the account row is locked first), and can never go below zero (check constraint).
 */
export const billingMigrations: Migration[] = [
  {
    name: '0100_billing_ledger',
    async up(db) {
      await db.schema.createTable('accounts', (t) => {
        t.string('user_id', 128).primary();
        t.string('email', 320);
        t.integer('balance').notNullable().defaultTo(0);
        t.timestamp('signed_up_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.raw('alter table accounts add constraint accounts_balance_not_negative check (balance >= 0)');

      await db.schema.createTable('ledger', (t) => {
        t.bigIncrements('id');
        t.string('user_id', 128).notNullable().references('user_id').inTable('accounts');
        t.string('kind', 16).notNullable();
        t.integer('credits').notNullable();
        t.integer('balance_delta').notNullable();
        t.string('upload_id', 128);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['user_id']);
      });
      await db.raw(`
        alter table ledger add constraint ledger_movement check (
          credits > 0 and (
            (kind in ('grant', 'purchase', 'release') and balance_delta = credits) or
            (kind in ('reserve', 'local_use', 'refund') and balance_delta = -credits) or
            (kind = 'capture' and balance_delta = 0)
          )
        )`);
      await db.raw(`alter table ledger add constraint ledger_upload_movements_name_upload check (kind not in ('reserve', 'capture', 'release') or upload_id is not null)`);
      await db.raw(`create unique index ledger_one_grant_per_user on ledger (user_id) where kind = 'grant'`);
      await db.raw(`create unique index ledger_one_movement_per_upload on ledger (upload_id, kind) where kind in ('reserve', 'capture', 'release')`);

      await db.schema.createTable('reservations', (t) => {
        t.string('upload_id', 128).primary();
        t.string('user_id', 128).notNullable().references('user_id').inTable('accounts');
        t.string('engine', 16).notNullable();
        t.integer('frames_requested').notNullable();
        t.integer('frames_allowed').notNullable();
        t.integer('credits_required').notNullable();
        t.integer('credits_reserved').notNullable();
        t.integer('balance_before').notNullable();
        t.string('status', 16).notNullable().defaultTo('held');
        t.string('settled_by', 16);
        t.integer('credits_captured').notNullable().defaultTo(0);
        t.integer('credits_released').notNullable().defaultTo(0);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('confirmed_at', { useTz: true });
        t.timestamp('settled_at', { useTz: true });
      });
      await db.raw(`
        alter table reservations add constraint reservations_state check (
          (status in ('held', 'confirmed') and settled_by is null and credits_captured = 0 and credits_released = 0) or
          (status = 'settled' and settled_by in ('processed', 'failed', 'abandoned') and credits_captured + credits_released = credits_reserved)
        )`);
      await db.raw(`create index reservations_held on reservations (created_at) where status = 'held'`);
    },
  },
  {
    // Purchases: one row per checkout session, the Stripe events already handled, and the session a purchase or
    // refund movement belongs to. A session is credited at most once (the unique index on the ledger backs the
    // status check), and an event id is handled at most once (its primary key).
    name: '0200_billing_payments',
    async up(db) {
      await db.schema.createTable('checkout_sessions', (t) => {
        t.string('session_id', 255).primary();
        t.string('user_id', 128).notNullable();
        t.string('provider', 16).notNullable();
        t.integer('credits').notNullable();
        t.integer('amount_cents').notNullable();
        t.string('currency', 3).notNullable();
        t.string('status', 16).notNullable().defaultTo('open');
        t.text('success_url').notNullable();
        t.text('cancel_url').notNullable();
        t.string('payment_intent_id', 255);
        t.integer('credits_refunded').notNullable().defaultTo(0);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('credited_at', { useTz: true });
        t.index(['user_id']);
      });
      await db.raw(`
        alter table checkout_sessions add constraint checkout_sessions_state check (
          provider in ('stripe', 'simulated') and credits > 0 and amount_cents > 0 and
          status in ('open', 'processing', 'credited', 'expired', 'failed') and
          (status = 'credited') = (credited_at is not null) and
          credits_refunded between 0 and credits
        )`);
      await db.raw(`create unique index checkout_sessions_payment_intent on checkout_sessions (payment_intent_id) where payment_intent_id is not null`);

      await db.schema.createTable('stripe_events', (t) => {
        t.string('event_id', 255).primary();
        t.string('type', 128).notNullable();
        t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });

      await db.schema.alterTable('ledger', (t) => {
        t.string('checkout_session_id', 255);
      });
      await db.raw(`alter table ledger add constraint ledger_payment_movements_name_session check (kind not in ('purchase', 'refund') or checkout_session_id is not null)`);
      await db.raw(`create unique index ledger_one_purchase_per_checkout on ledger (checkout_session_id) where kind = 'purchase'`);
    },
  },
  {
    // Credits always come back: an upload upload cancelled (getUploadURL gave up, or the person never completed it)
    // and an upload results deleted release what they hold, each with its own settled_by. A cancel can overtake a
    // slow reservation, so the cancelled upload ids are kept for a while and a reservation for one is refused.
    name: '0300_billing_release_cancelled_and_deleted',
    async up(db) {
      await db.raw('alter table reservations drop constraint reservations_state');
      await db.raw(`
        alter table reservations add constraint reservations_state check (
          (status in ('held', 'confirmed') and settled_by is null and credits_captured = 0 and credits_released = 0) or
          (status = 'settled' and settled_by in ('processed', 'failed', 'abandoned', 'cancelled', 'deleted') and credits_captured + credits_released = credits_reserved)
        )`);
      await db.schema.createTable('cancelled_uploads', (t) => {
        t.string('upload_id', 128).primary();
        t.string('user_id', 128).notNullable();
        t.string('reason', 32).notNullable();
        t.timestamp('cancelled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['cancelled_at']);
      });
    },
  },
  {
    // Local engine runs are charged once per user and upload id (the browser picks local- ids, which two users may
    // share): a local_use movement names its upload, and there is at most one per user and upload.
    name: '0400_billing_local_use_once',
    async up(db) {
      await db.raw(`alter table ledger add constraint ledger_local_use_names_upload check (kind <> 'local_use' or upload_id is not null)`);
      await db.raw(`create unique index ledger_one_local_use_per_upload on ledger (user_id, upload_id) where kind = 'local_use'`);
    },
  },
  {
    // Account deletion (user.deleted.v1): the account is closed and its e-mail erased; the ledger stays, so the books
    // still balance. What it held is forfeited with a `forfeit` movement, and so is whatever is released or credited to
    // it afterwards (a hold its uploads' events release later), so a closed account's balance stays 0.
    name: '0500_billing_closed_accounts',
    async up(db) {
      await db.schema.alterTable('accounts', (t) => {
        t.timestamp('closed_at', { useTz: true });
      });
      await db.raw('alter table accounts add constraint accounts_closed_hold_no_email check (closed_at is null or email is null)');
      await db.raw('alter table ledger drop constraint ledger_movement');
      await db.raw(`
        alter table ledger add constraint ledger_movement check (
          credits > 0 and (
            (kind in ('grant', 'purchase', 'release') and balance_delta = credits) or
            (kind in ('reserve', 'local_use', 'refund', 'forfeit') and balance_delta = -credits) or
            (kind = 'capture' and balance_delta = 0)
          )
        )`);
    },
  },
];
