import type { Migration } from '@frametext/service-kit';

export const identityMigrations: Migration[] = [
  {
    name: '0001_identity_tables',
    async up(db) {
      await db.schema.createTable('users', (t) => {
        t.uuid('uid').primary();
        t.string('email', 320).notNullable().unique();
        t.text('password_hash');
        t.boolean('disabled').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('last_login_at', { useTz: true });
        t.string('google_sub', 255).unique();
      });
      await db.schema.createTable('refresh_sessions', (t) => {
        t.uuid('family_id').primary();
        t.uuid('user_id').notNullable().references('uid').inTable('users').onDelete('CASCADE');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('revoked_at', { useTz: true });
        t.string('revoked_reason', 50);
        t.index(['user_id']);
      });
      await db.schema.createTable('refresh_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('family_id').notNullable().references('family_id').inTable('refresh_sessions').onDelete('CASCADE');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('spent_at', { useTz: true });
        t.index(['family_id']);
      });
      await db.schema.createTable('password_reset_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('user_id').notNullable().references('uid').inTable('users').onDelete('CASCADE');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.index(['user_id']);
      });
      await db.schema.createTable('signing_keys', (t) => {
        t.string('kid', 64).primary();
        t.text('public_pem').notNullable();
        t.text('private_pem').notNullable();
        t.boolean('encrypted').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        // Set when a newer key takes over; the key stays in the JWKS until its last tokens have expired.
        t.timestamp('retired_at', { useTz: true });
      });
      // At most one active key, whatever replicas race to create one.
      await db.raw('create unique index signing_keys_one_active on signing_keys ((true)) where retired_at is null');
      await db.schema.createTable('rate_limit_counters', (t) => {
        t.string('bucket', 400).notNullable();
        t.timestamp('window_start', { useTz: true }).notNullable();
        t.integer('count').notNullable().defaultTo(0);
        t.primary(['bucket', 'window_start']);
      });
      await db.schema.createTable('oidc_flows', (t) => {
        t.string('state_hash', 64).primary();
        t.string('provider', 20).notNullable();
        t.string('nonce', 128).notNullable();
        t.string('code_verifier', 128).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    name: '0002_mail_outbox',
    async up(db) {
      // E-mails are written here in the transaction that needs them and sent afterwards, so a crash between the
      // answer and the send loses nothing: the next delivery round (any replica) sends what is left.
      await db.schema.createTable('mail_outbox', (t) => {
        t.bigIncrements('id').primary();
        t.string('to_address', 320).notNullable();
        t.string('subject', 300).notNullable();
        t.text('body').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        // Past this time the mail is not worth sending (its link has expired): it is dropped.
        t.timestamp('send_before', { useTz: true }).notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.text('last_error');
        t.index(['next_attempt_at']);
      });
    },
  },
  {
    name: '0003_revoked_sessions_index',
    async up(db) {
      // The revocation feed reads the sessions ended in the last access-token lifetime, every few seconds.
      await db.raw('create index refresh_sessions_revoked_at on refresh_sessions (revoked_at) where revoked_at is not null');
    },
  },
  {
    name: '0004_login_attempts',
    async up(db) {
      // Failed log-ins per account and address: an address that keeps guessing waits longer and longer, while the
      // owner, from an address they signed in from before (kept as a hash), is never locked out by someone else.
      await db.schema.createTable('login_failures', (t) => {
        t.string('email', 320).notNullable();
        t.string('address', 64).notNullable();
        t.integer('failures').notNullable();
        t.timestamp('last_failure_at', { useTz: true }).notNullable();
        t.primary(['email', 'address']);
        t.index(['last_failure_at']);
      });
      await db.schema.createTable('known_login_addresses', (t) => {
        t.uuid('user_id').notNullable().references('uid').inTable('users').onDelete('CASCADE');
        t.string('address_hash', 64).notNullable();
        t.timestamp('last_success_at', { useTz: true }).notNullable();
        t.primary(['user_id', 'address_hash']);
      });
    },
  },
  {
    name: '0005_account_deletion',
    async up(db) {
      // A deleted account keeps its row, without any personal data, while the revocation feed lists its sessions
      // (refresh_sessions points at it); the maintenance job removes it, and its sessions with it, after that.
      // Its e-mail is null, so the address can sign up again at once.
      await db.schema.alterTable('users', (t) => {
        t.timestamp('deleted_at', { useTz: true });
      });
      await db.raw('alter table users alter column email drop not null');
      await db.raw(`
        alter table users add constraint users_deleted_hold_no_personal_data check (
          case when deleted_at is null then email is not null
          else email is null and password_hash is null and google_sub is null and last_login_at is null end
        )`);
    },
  },
  {
    name: '0006_api_tokens',
    async up(db) {
      // Personal API tokens: the secret is stored as its SHA-256 (it is 256 random bits; see docs/security.md). A
      // revoked row stays while the revocation feed lists it, then the maintenance job removes it.
      await db.schema.createTable('api_tokens', (t) => {
        t.uuid('id').primary();
        t.uuid('user_id').notNullable().references('uid').inTable('users').onDelete('CASCADE');
        t.string('name', 100).notNullable();
        t.string('scope', 10).notNullable();
        t.string('secret_hash', 64).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('last_used_at', { useTz: true });
        t.timestamp('revoked_at', { useTz: true });
        t.index(['user_id']);
      });
      await db.raw(`alter table api_tokens add constraint api_tokens_scope check (scope in ('read', 'upload'))`);
      await db.raw('create index api_tokens_revoked_at on api_tokens (revoked_at) where revoked_at is not null');
    },
  },
  {
    name: '0007_api_token_budgets',
    async up(db) {
      // Each personal token's request budget, shared by every gateway replica (a token bucket: what it held at
      // refilled_at, on the database's clock). A row idle for a minute is full, the same as no row.
      await db.schema.createTable('api_token_budgets', (t) => {
        t.uuid('token_id').primary().references('id').inTable('api_tokens').onDelete('CASCADE');
        t.double('tokens').notNullable();
        t.timestamp('refilled_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    name: '0008_email_confirmation',
    async up(db) {
      // When the address was proven (the mailed link, or Google vouching for it); the free credits wait for it.
      // Accounts older than this migration got their free credits at sign-up, before there was anything to confirm:
      // they count as confirmed from their creation, so nobody is asked to confirm for credits they already have.
      await db.schema.alterTable('users', (t) => {
        t.timestamp('email_confirmed_at', { useTz: true });
      });
      await db.raw('update users set email_confirmed_at = created_at where deleted_at is null');
      // Single-use confirmation links, stored as the SHA-256 of their token like reset links.
      await db.schema.createTable('email_confirmation_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('user_id').notNullable().references('uid').inTable('users').onDelete('CASCADE');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.index(['user_id']);
      });
    },
  },
  {
    name: '0009_request_budgets',
    async up(db) {
      // One request budget per person, for all their API tokens and browser sessions together, shared by every gateway
      // replica (a token bucket: what it held at refilled_at, on the database's clock). It replaces the per-token
      // budgets, which let 20 tokens make 20 times the requests. No foreign key: the gateway names only people whose
      // access token it verified, and an idle row is pruned within minutes whatever became of its person.
      await db.schema.createTable('request_budgets', (t) => {
        t.string('user_id', 255).primary();
        t.double('tokens').notNullable();
        t.timestamp('refilled_at', { useTz: true }).notNullable();
      });
      await db.schema.dropTableIfExists('api_token_budgets');
    },
  },
];
