import type { Migration } from '@frametext/service-kit';

export const resultsMigrations: Migration[] = [
  {
    name: '0001_results_tables',
    async up(db) {
      // Events arrive in any order, so a row may first be created by frames.extracted (no owner yet):
      // every column but the id is nullable or defaulted, and upload.completed fills in the rest.
      await db.schema.createTable('uploads', (t) => {
        t.string('id', 128).primary();
        t.string('user_id', 128);
        t.text('upload_name');
        t.string('kind', 16);
        t.string('engine', 16);
        t.string('media_content', 16);
        t.double('interval_seconds');
        t.boolean('slide_detection');
        t.string('sort_preference', 16);
        t.integer('max_frames');
        t.integer('credit_cost');
        t.string('original_language', 32);
        t.string('target_language', 32);
        t.string('mime_type', 100);
        t.double('duration_seconds');
        t.string('status', 16).notNullable().defaultTo('uploaded');
        t.text('failure_reason');
        t.integer('frames_total');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('uploaded_at', { useTz: true });
        t.timestamp('processed_at', { useTz: true });
        t.index(['user_id', 'created_at']);
        t.index(['created_at']);
      });
      await db.schema.createTable('frames', (t) => {
        t.string('upload_id', 128).notNullable().references('id').inTable('uploads').onDelete('CASCADE');
        t.integer('frame_index').notNullable();
        t.bigInteger('timestamp_ms');
        t.string('object_key', 1024);
        t.string('thumbnail_key', 1024);
        t.jsonb('detections');
        t.integer('image_width');
        t.integer('image_height');
        t.text('ocr_failure_reason');
        t.timestamp('ocr_done_at', { useTz: true });
        t.primary(['upload_id', 'frame_index']);
      });
      await db.schema.createTable('upload_results', (t) => {
        t.string('upload_id', 128).primary().references('id').inTable('uploads').onDelete('CASCADE');
        t.string('processing_type', 16).notNullable();
        t.jsonb('lines_by_frame').notNullable();
        t.jsonb('max_values').notNullable();
        t.jsonb('ocr_results').notNullable();
        t.string('results_key', 1024);
      });
      // One row per seeded demo: whichever replica inserts it seeds, the others do nothing.
      await db.schema.createTable('demo_seeds', (t) => {
        t.string('upload_id', 128).primary();
        t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  {
    // Credits always come back. last_progress_at: when the upload last moved (completed, frames extracted, a new
    // OCR frame), read by the watchdog; existing rows start their clock now. purges: uploads whose files are being
    // removed, deleted ones (the row doubles as their tombstone: late events for them are ignored) and failed ones
    // (their row stays, with its reason). Each folder is emptied when due, then again every PURGE_REPEAT_MINUTES
    // while the purge is younger than PURGE_WINDOW_HOURS (frames written late by a worker still running), and then
    // the purge row is dropped.
    name: '0002_results_tombstones_purges_watchdog',
    async up(db) {
      await db.schema.alterTable('uploads', (t) => {
        t.timestamp('last_progress_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.raw(`create index uploads_in_progress on uploads (last_progress_at) where status in ('uploaded', 'processing')`);
      await db.schema.createTable('purges', (t) => {
        t.string('upload_id', 128).primary();
        t.string('kind', 16).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('next_purge_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['next_purge_at']);
      });
      await db.raw(`alter table purges add constraint purges_kind check (kind in ('deleted', 'failed'))`);
    },
  },
  {
    // People who deleted their account (user.deleted.v1): an upload of theirs that reaches results afterwards (it
    // was completed a moment before the deletion) is deleted on arrival instead of being listed for nobody.
    name: '0003_results_deleted_users',
    async up(db) {
      await db.schema.createTable('deleted_users', (t) => {
        t.string('user_id', 128).primary();
        t.timestamp('deleted_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    // When the frames were extracted, so an upload's time splits into extraction and OCR (the stage metric).
    name: '0004_results_extracted_at',
    async up(db) {
      await db.schema.alterTable('uploads', (t) => {
        t.timestamp('extracted_at', { useTz: true });
      });
    },
  },
  {
    // Uploads their owners deleted (or retention removed), with the owner: the results page of a deleted upload
    // says so to its owner (410) instead of "not found", while anyone else still gets the same 404 as for an id that
    // never existed. Account deletion removes the person's rows.
    name: '0005_results_deleted_uploads',
    async up(db) {
      await db.schema.createTable('deleted_uploads', (t) => {
        t.string('upload_id', 128).primary();
        t.string('user_id', 128).notNullable().index();
        t.timestamp('deleted_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  {
    // A person's work in a results view (series, boxes, filters, the scroll template), one document per upload,
    // person and view: the person, not just the upload, since everyone signed in may keep their own work on the
    // demo. Removed with the upload (cascade) or, for the demo, when the person deletes their account. revision
    // counts saves, for the optimistic check that keeps two tabs from undoing each other.
    name: '0006_results_kept_work',
    async up(db) {
      await db.schema.createTable('kept_work', (t) => {
        t.string('upload_id', 128).notNullable().references('id').inTable('uploads').onDelete('CASCADE');
        t.string('user_id', 128).notNullable();
        t.string('view', 16).notNullable();
        t.integer('revision').notNullable();
        t.jsonb('document').notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['upload_id', 'user_id', 'view']);
        t.index(['user_id']);
      });
    },
  },
  {
    // Webhooks (docs/webhooks.md): a person's URLs with their signing secrets, and one delivery row per event and
    // webhook, written in the transaction that made the upload processed or failed. The delivery loop claims due rows
    // (next_attempt_at) with SKIP LOCKED; unique (webhook_id, event_id) keeps an event once per webhook however often
    // the transaction that writes it runs.
    name: '0007_results_webhooks',
    async up(db) {
      await db.schema.createTable('webhooks', (t) => {
        t.uuid('id').primary();
        t.string('user_id', 128).notNullable().index();
        t.string('url', 2048).notNullable();
        // Kept in the clear: every attempt signs with it (as Stripe keeps its endpoint secrets); shown once, at creation.
        t.string('secret', 100).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.schema.createTable('webhook_deliveries', (t) => {
        t.uuid('id').primary();
        t.uuid('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
        t.uuid('event_id').notNullable();
        t.string('event_type', 32).notNullable();
        // The exact bytes every attempt sends (and signs).
        t.text('payload').notNullable();
        t.string('status', 16).notNullable().defaultTo('pending');
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('last_attempt_at', { useTz: true });
        t.integer('response_status');
        t.text('response_excerpt');
        t.integer('duration_ms');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.unique(['webhook_id', 'event_id']);
        t.index(['webhook_id', 'created_at']);
      });
      await db.raw(`alter table webhook_deliveries add constraint webhook_deliveries_status check (status in ('pending', 'delivered', 'failed'))`);
      await db.raw(`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`);
    },
  },
  {
    // When each person sent their recent test events, for the per-person cap (WEBHOOK_TEST_EVENTS_PER_MINUTE). Kept
    // apart from the deliveries, which go with their webhook: deleting one and adding it again does not reset the count.
    name: '0008_results_webhook_test_sends',
    async up(db) {
      await db.schema.createTable('webhook_test_sends', (t) => {
        t.bigIncrements('id');
        t.string('user_id', 128).notNullable();
        t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['user_id', 'sent_at']);
      });
    },
  },
  {
    // What a processed upload's reading found (contracts' textFoundIn), counted once when its results are saved, so
    // the uploads list does not read every frame's text. Uploads processed before it have none.
    name: '0009_results_text_found',
    async up(db) {
      await db.schema.alterTable('upload_results', (t) => {
        t.jsonb('text_found').nullable();
      });
    },
  },
  {
    // When the claimed demo was sent into the pipeline: a claim without it whose replica died is taken over.
    name: '0010_results_demo_seeded_at',
    async up(db) {
      await db.schema.alterTable('demo_seeds', (t) => {
        t.timestamp('seeded_at', { useTz: true }).nullable();
      });
    },
  },
];

