import type { Migration } from '@frametext/service-kit';

export const uploadMigrations: Migration[] = [
  {
    name: '0001_upload_uploads',
    async up(db) {
      await db.schema.createTable('uploads', (t) => {
        // Local runs arrive with ids the browser chose (local-<ms>), which two users may share: the key is per user.
        t.string('user_id', 128).notNullable();
        t.string('id', 128).notNullable();
        t.primary(['user_id', 'id']);
        t.text('name').notNullable();
        t.string('kind', 16).notNullable();
        t.string('engine', 16).notNullable();
        t.string('media_content', 32).notNullable();
        t.double('interval_seconds');
        t.boolean('slide_detection').notNullable().defaultTo(false);
        t.string('sort_preference', 16);
        t.string('original_language', 32);
        t.string('target_language', 32);
        t.string('mime_type', 64).notNullable();
        t.jsonb('file_names');
        t.jsonb('timestamps');
        t.double('duration_seconds');
        t.integer('frames_requested').notNullable();
        t.integer('frames_allowed').notNullable();
        t.integer('credit_cost').notNullable();
        t.jsonb('object_keys').notNullable();
        t.string('status', 16).notNullable();
        t.string('failure_code', 64);
        t.text('failure_reason');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('completed_at', { useTz: true });
      });
      await db.raw(`create index uploads_uploading on uploads (created_at) where status = 'uploading'`);
    },
  },
  {
    // getUploadURL stores the row (status `reserving`, frames_allowed and credit_cost 0: nothing is paid for yet)
    // before it asks billing for the hold, so a start that crashes or loses billing's answer leaves a row the
    // unfinished-start sweep finds within minutes and cancels (upload.cancelled.v1, and billing releases).
    name: '0003_upload_reservation_saga',
    async up(db) {
      await db.raw(`create index uploads_reserving on uploads (created_at) where status = 'reserving'`);
    },
  },
  {
    // Objects are sealed at uploadComplete: copied to keys no presigned URL points at (sealed_keys), which the
    // pipeline reads; what sits at the presigned keys is removed once the URLs have expired (originals_swept_at).
    name: '0004_upload_sealed_objects',
    async up(db) {
      await db.schema.alterTable('uploads', (t) => {
        t.jsonb('sealed_keys');
        t.timestamp('originals_swept_at', { useTz: true });
      });
      // Uploads settled before sealing existed were read at their original keys: leave their objects alone.
      await db('uploads').whereNotIn('status', ['uploading', 'reserving']).update({ originals_swept_at: db.fn.now() });
      await db.raw(`create index uploads_unswept on uploads (created_at) where originals_swept_at is null and kind <> 'local'`);
    },
  },
  {
    // The per-user storage quota: bytes promised at getUploadURL (declared_bytes) count while an upload is open,
    // the sealed bytes (source_bytes) once it is uploaded; a deleted upload (deleted_at) stops counting.
    name: '0005_upload_storage_quota',
    async up(db) {
      await db.schema.alterTable('uploads', (t) => {
        t.bigInteger('declared_bytes');
        t.bigInteger('source_bytes');
        t.timestamp('deleted_at', { useTz: true });
      });
    },
  },
  {
    // People who deleted their account (user.deleted.v1): a start of theirs still on its way is refused rather than
    // stored for nobody (their access token works for up to REVOCATIONS_POLL_MS more).
    name: '0006_upload_deleted_users',
    async up(db) {
      await db.schema.createTable('deleted_users', (t) => {
        t.string('user_id', 128).primary();
        t.timestamp('deleted_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    // Videos by link: the server fetches the video (status `downloading`) before the upload goes on as an
    // uploaded one. The link, how far the fetch is, and when it last said so (a silent fetch died with its process).
    name: '0007_upload_video_links',
    async up(db) {
      await db.schema.alterTable('uploads', (t) => {
        t.text('source_link');
        t.boolean('interval_auto').notNullable().defaultTo(false);
        t.integer('download_percent');
        t.bigInteger('download_bytes');
        t.timestamp('download_heartbeat_at', { useTz: true });
      });
      await db.raw(`create index uploads_downloading on uploads (download_heartbeat_at) where status = 'downloading'`);
    },
  },
];
