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
];
