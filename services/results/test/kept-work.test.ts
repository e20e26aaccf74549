// A person's work in the results views: GET and PUT /api/uploads/:id/work/:view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_UPLOAD_ID, KEPT_WORK_MAX_BYTES, keptWorkResponseSchema, type NumericalWork, type RegionWork } from '@frametext/contracts';
import { newUploadId, newUserId } from './fixtures.js';
import { startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults({}, {}, ['upload.deleted.v1', 'upload.processed.v1']);
  // The demo as the seed leaves it: owned by nobody but the demo, processed.
  await svc.db('uploads').insert({ id: DEMO_UPLOAD_ID, user_id: DEMO_UPLOAD_ID, status: 'processed' }).onConflict('id').ignore();
});
afterAll(async () => {
  await svc?.stop();
});

const workPath = (id: string, view = 'numerical') => `/api/uploads/${id}/work/${view}`;

function numerical(seriesName: string, locked = false): NumericalWork {
  return {
    version: 1,
    tracking: { similarity: 90, disappearance: 2, minSize: 0.1, confidence: 60 },
    blocks: [
      {
        id: locked ? 'locked-1234' : 'block-1-1',
        originalId: 'block-1-1',
        locked,
        uniqueID: 1234,
        points: locked ? [{ frame: 0, index: 0 }, { frame: 1, index: 0 }] : null,
        total: locked ? 2 : null,
        settings: { seriesName, numbersOnly: true, wordsToRemove: 'Battery', charactersToRemove: '%', characterToSplit: '', keepSplitItem: 0 },
      },
    ],
  };
}

const region: RegionWork = {
  version: 1,
  boxes: [
    { id: 0, enabled: true, norm: { x: 0.1, y: 0.2, w: 0.5, h: 0.3 } },
    { id: 1, enabled: false, norm: null },
  ],
  selected: 0,
  filters: { minConfidence: 70, length: { min: 2, max: 40 }, area: { min: 0, max: 5000 } },
};

describe('kept work', () => {
  it('starts empty, keeps each view\'s document as saved, and counts the saves', async () => {
    const user = newUserId();
    const id = await svc.storedUpload(user, 2, 2);
    const empty = await svc.get(workPath(id), user);
    expect(empty.status).toBe(200);
    expect(keptWorkResponseSchema.parse(empty.body).data).toEqual({ view: 'numerical', revision: 0, document: null, updatedAt: null });

    const first = await svc.put(workPath(id), { revision: 0, document: numerical('Battery') }, user);
    expect(first.status).toBe(200);
    expect(first.body.data.revision).toBe(1);
    const second = await svc.put(workPath(id), { revision: 1, document: numerical('Battery level', true) }, user);
    expect(second.body.data.revision).toBe(2);
    expect((await svc.put(workPath(id, 'region'), { revision: 0, document: region }, user)).status).toBe(200);

    const back = keptWorkResponseSchema.parse((await svc.get(workPath(id), user)).body).data;
    expect(back).toMatchObject({ view: 'numerical', revision: 2, document: numerical('Battery level', true) });
    expect(keptWorkResponseSchema.parse((await svc.get(workPath(id, 'region'), user)).body).data).toMatchObject({ revision: 1, document: region });
  });

  it('refuses a save based on an older revision (another tab saved first) with 409 and the current revision', async () => {
    const user = newUserId();
    const id = await svc.storedUpload(user, 1, 1);
    expect((await svc.put(workPath(id), { revision: 0, document: numerical('Tab A') }, user)).status).toBe(200);
    const stale = await svc.put(workPath(id), { revision: 0, document: numerical('Tab B') }, user);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'work/stale', details: { revision: 1 } });
    expect(stale.body.error.message).toContain('changed in another tab');
    const ahead = await svc.put(workPath(id), { revision: 5, document: numerical('Tab C') }, user);
    expect(ahead.status).toBe(409);
    expect((await svc.get(workPath(id), user)).body.data.document.blocks[0].settings.seriesName).toBe('Tab A');
  });

  it('says what to fix for a bad view, a bad document or one too large, and keeps nothing', async () => {
    const user = newUserId();
    const id = await svc.storedUpload(user, 1, 1);
    const view = await svc.get(workPath(id, 'charts'), user);
    expect(view.status).toBe(400);
    expect(view.body.error.message).toContain('view must be presentation, numerical, region or scroll');

    const badBox = await svc.put(workPath(id, 'region'), { revision: 0, document: { ...region, selected: 7 } }, user);
    expect(badBox.status).toBe(400);
    expect(badBox.body.error.code).toBe('work/invalid-document');
    expect(badBox.body.error.message).toMatch(/^selected: /);

    const noRevision = await svc.put(workPath(id), { document: numerical('x') }, user);
    expect(noRevision.status).toBe(400);
    expect(noRevision.body.error.message).toMatch(/^revision: /);

    const huge = numerical('x', true);
    huge.blocks[0]!.points = Array.from({ length: 20_000 }, (_, frame) => ({ frame, index: 3 }));
    expect(JSON.stringify(huge).length).toBeGreaterThan(KEPT_WORK_MAX_BYTES);
    const tooLarge = await svc.put(workPath(id), { revision: 0, document: huge }, user);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'work/too-large' });
    expect(tooLarge.body.error.message).toContain('at most 256 KB is kept per view');
    expect((await svc.get(workPath(id), user)).body.data.revision).toBe(0);
  });

  it('is the owner\'s only: another person gets the same 404 as for a missing upload, a deleted upload 410, no token 401', async () => {
    const owner = newUserId();
    const id = await svc.storedUpload(owner, 1, 1);
    await svc.put(workPath(id), { revision: 0, document: numerical('Mine') }, owner);
    const stranger = newUserId();
    const theirs = await svc.get(workPath(id), stranger);
    const missing = await svc.get(workPath(newUploadId()), stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ code: missing.body.error.code, message: missing.body.error.message });
    expect((await svc.put(workPath(id), { revision: 1, document: numerical('Not yours') }, stranger)).status).toBe(404);
    expect((await svc.get(workPath(id))).status).toBe(401);

    expect((await svc.post('/api/deleteUploads', { uploads: [id], deleteUploads: true }, owner)).status).toBe(200);
    expect(await svc.db('kept_work').where({ upload_id: id })).toEqual([]);
    const gone = await svc.get(workPath(id), owner);
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('uploads/deleted');
    expect((await svc.put(workPath(id), { revision: 1, document: numerical('Late') }, owner)).status).toBe(410);
  });

  it('keeps each signed-in person\'s own work on the demo, and forgets it when they delete their account', async () => {
    const me = newUserId();
    const other = newUserId();
    expect((await svc.put(workPath(DEMO_UPLOAD_ID, 'region'), { revision: 0, document: region }, me)).status).toBe(200);
    expect((await svc.get(workPath(DEMO_UPLOAD_ID, 'region'), other)).body.data).toMatchObject({ revision: 0, document: null });
    expect((await svc.put(workPath(DEMO_UPLOAD_ID, 'region'), { revision: 0, document: { ...region, selected: 1 } }, other)).status).toBe(200);

    await svc.deliver('user.deleted.v1', { uid: me, deletedAt: new Date().toISOString() });
    expect(await svc.db('kept_work').where({ user_id: me })).toEqual([]);
    expect((await svc.get(workPath(DEMO_UPLOAD_ID, 'region'), other)).body.data.document.selected).toBe(1);
  });
});
