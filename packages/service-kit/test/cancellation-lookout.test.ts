import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellationLookout, cancelledUploadsMigration, recordCancelledUpload, UploadCancelledError } from '../src/cancellations/cancelled-uploads.js';
import { busMigrations } from '../src/bus/migrations.js';
import { enqueueEvent } from '../src/bus/outbox.js';
import { createDb, migrate, type Knex } from '../src/db/index.js';
import { TEST_DATABASE_URL, uniqueName } from '../src/testing/index.js';

const schema = uniqueName('lookout_test');
let db: Knex;

beforeAll(async () => {
  db = createDb(TEST_DATABASE_URL, schema, { max: 2 });
  await migrate(db, schema, [...busMigrations, cancelledUploadsMigration]);
});
afterAll(async () => {
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
});

const cancel = (uploadId: string) => db.transaction((trx) => recordCancelledUpload(trx, uploadId));

describe('the lookout for deleted uploads before each read', () => {
  it('lets a live upload go on and stops a deleted one', async () => {
    const look = cancellationLookout(db, 0);
    await expect(look('live')).resolves.toBeUndefined();
    await cancel('gone');
    await expect(look('gone')).rejects.toBeInstanceOf(UploadCancelledError);
  });

  it('trusts an answer for its fresh time and asks again after it', async () => {
    const remembering = cancellationLookout(db, 60 * 60_000);
    const asking = cancellationLookout(db, 0);
    await remembering('soon-deleted');
    await asking('soon-deleted');
    await cancel('soon-deleted');
    // Within the hour the first lookout goes by its remembered answer; one whose answers are never fresh sees the deletion.
    await expect(remembering('soon-deleted')).resolves.toBeUndefined();
    await expect(asking('soon-deleted')).rejects.toBeInstanceOf(UploadCancelledError);
  });

  it('does not remember a look that failed for another reason', async () => {
    // A schema whose table is not there yet: the look fails, then the table is made and the next look goes through.
    const later = uniqueName('lookout_later');
    const other = createDb(TEST_DATABASE_URL, later, { max: 1 });
    try {
      const look = cancellationLookout(other, 60 * 60_000);
      await expect(look('any')).rejects.not.toBeInstanceOf(UploadCancelledError);
      await migrate(other, later, [cancelledUploadsMigration]);
      await expect(look('any')).resolves.toBeUndefined();
    } finally {
      await other.raw('drop schema if exists ?? cascade', [later]);
      await other.destroy();
    }
  });
});

describe('a worker told an upload was deleted', () => {
  const square = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }, { x: 0, y: 10 }];
  const completed = (uploadId: string, text: string) => ({ uploadId, frameIndex: 0, timestampMs: 0, engine: 'server' as const, durationMs: 5, detections: [{ text, vertices: square, area: 100, blockType: 'LINE' }] });
  const outboxTexts = async () => (await db('outbox').select('envelope')).map((r: { envelope: { data: { detections: { text: string }[] } } }) => r.envelope.data.detections[0]!.text);

  it('forgets its events about that upload, sent or not, and keeps those about others', async () => {
    await enqueueEvent(db, 'ocr.completed.v1', completed('doomed', 'sent secret'));
    await db('outbox').update({ published_at: db.fn.now() });
    await enqueueEvent(db, 'ocr.completed.v1', completed('doomed', 'unsent secret'));
    await enqueueEvent(db, 'ocr.completed.v1', completed('kept', 'other text'));
    await cancel('doomed');
    expect(await outboxTexts()).toEqual(['other text']);
  });
});
