import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDetailsOldResponseSchema, uploadDetailsResponseSchema } from '@frametext/contracts';
import { makeChargerDemoVideo, seedDemo, STALE_CLAIM_MINUTES, type DemoVideoMaker } from '../src/domain/demo.js';
import type { RunningResults } from '../src/service.js';
import { detection, extracted, newUserId, ocr } from './fixtures.js';
import { eventually, startResults, type TestResults } from './helpers.js';

const VIDEO_BYTES = Buffer.from('not really an mp4, frame extraction does not run in this test');
let makerCalls = 0;
let secondReplicaStarted!: () => void;
/** Released once the second replica has started: until then the first is still making the demo video. */
const secondReplicaUp = new Promise<void>((resolve) => (secondReplicaStarted = resolve));
/** Stands in for the ffmpeg charger video: these tests check the seeding, not the video. */
const fakeMaker: DemoVideoMaker = async ({ dir, seconds }) => {
  makerCalls += 1;
  await secondReplicaUp;
  const path = join(dir, 'charger.mp4');
  await writeFile(path, VIDEO_BYTES);
  return { path, durationSeconds: seconds };
};

let svc: TestResults;
let second: RunningResults;
beforeAll(async () => {
  svc = await startResults({ DEMO_SEED: 'true', DEMO_VIDEO_SECONDS: '45' }, { makeDemoVideo: fakeMaker }, ['upload.completed.v1', 'upload.processed.v1']);
  // A second replica starting while the first is seeding (it has claimed the demo and is making the video) must not
  // seed again.
  await eventually(() => makerCalls > 0);
  second = await svc.replica();
  secondReplicaStarted();
});
afterAll(async () => {
  await svc?.stop();
});

const demoCompleted = () => svc.published.filter((p) => p.type === 'upload.completed.v1' && p.data.uploadId === 'demo');

describe('the public demo', () => {
  it('is seeded once at start: the video stored where upload would put it, and upload.completed.v1 sent into the pipeline', async () => {
    // Both seeding attempts are over: the second replica's stop waits for its own, and the first has written its event.
    await second.stop();
    await eventually(() => demoCompleted().length > 0);
    expect(makerCalls).toBe(1);
    expect((await svc.service.outbox()).filter((e) => e.type === 'upload.completed.v1' && e.data.uploadId === 'demo')).toHaveLength(1);
    expect(demoCompleted()).toHaveLength(1);
    expect(demoCompleted()[0]!.data).toMatchObject({
      uploadId: 'demo',
      userId: 'demo',
      kind: 'video',
      objectKeys: ['uploads/demo/source/video.mp4'],
      engine: 'server',
      mediaContent: 'numerical',
      intervalSeconds: 5,
      maxFrames: 9,
      creditCost: 0,
      durationSeconds: 45,
    });
    expect(await svc.ctx.storage.getBuffer('uploads/demo/source/video.mp4')).toEqual(VIDEO_BYTES);
  });

  it('says clearly that the demo is not ready until the pipeline has processed it, without sign-in', async () => {
    await eventually(async () => (await svc.db('uploads').where({ id: 'demo' }).first()) !== undefined);
    for (const path of ['/api/getUploadDetails/demo?mode=numerical', '/api/getUploadDetailsOld/demo?mode=numerical']) {
      const res = await svc.get(path);
      expect(res.status, path).toBe(409);
      expect(res.body.error.code).toBe('results/not-ready');
      expect(res.body.error.message).toMatch(/demo is still being processed/i);
    }
  });

  it('serves the processed demo to anyone, signed in or not, and stays private to other endpoints', async () => {
    await svc.publish('frames.extracted.v1', extracted('demo', 9));
    for (let i = 0; i < 9; i += 1) await svc.publish('ocr.completed.v1', ocr('demo', i, [detection(`${80 + i}%`, 0), detection(`${i}.0 kW`, 1)]));
    await eventually(async () => (await svc.get('/api/getUploadDetails/demo')).status === 200);

    const res = await svc.get('/api/getUploadDetails/demo?mode=numerical');
    const details = uploadDetailsResponseSchema.parse(res.body);
    expect(details.uploadData).toMatchObject({ userID: 'demo', status: 'processed', creditCost: 0, maxFrames: 9 });
    expect(details.urls).toHaveLength(9);
    expect(details.results.linesByFrame[3]!.map((l) => l.text)).toEqual(['83%', '3.0 kW']);

    expect((await svc.get('/api/getUploadDetails/demo', newUserId())).status).toBe(200);
    expect(uploadDetailsOldResponseSchema.parse((await svc.get('/api/getUploadDetailsOld/demo')).body).results.results).toHaveLength(9);
    // The demo is not anyone's upload: it is not listed, and its status is not answered to a user.
    expect((await svc.get('/api/checkUploadStatus/demo', newUserId())).status).toBe(404);
    expect((await svc.get('/api/getUploads', newUserId())).body.data.uploads).toEqual([]);
    // Billing's upload.processed.v1 goes out for the demo too (it has no reservation, so billing moves nothing).
    await eventually(() => svc.published.some((p) => p.type === 'upload.processed.v1' && p.data.uploadId === 'demo'));
  });

  it('is never removed by the retention job', async () => {
    const { runRetention } = await import('../src/domain/deletion.js');
    await runRetention(svc.ctx, new Date(Date.now() + 400 * 86_400_000));
    expect((await svc.get('/api/getUploadDetails/demo')).status).toBe(200);
  });
});

describe('a demo claim left by a replica that died while seeding', () => {
  it(`is taken over once it is ${STALE_CLAIM_MINUTES} minutes old, and not before`, async () => {
    const other = await startResults();
    try {
      const claim = (minutesAgo: number) => other.ctx.db('demo_seeds').insert({ upload_id: 'demo', claimed_at: other.ctx.db.raw(`now() - make_interval(mins => ?)`, [minutesAgo]) });
      await claim(STALE_CLAIM_MINUTES - 1);
      expect(await seedDemo(other.ctx, fakeMaker)).toBe('exists');
      await other.ctx.db('demo_seeds').del();
      await claim(STALE_CLAIM_MINUTES + 1);
      expect(await seedDemo(other.ctx, fakeMaker)).toBe('seeded');
      expect(await other.ctx.db('demo_seeds').first('seeded_at')).toMatchObject({ seeded_at: expect.any(Date) });
      // Seeded now: another start leaves it alone.
      expect(await seedDemo(other.ctx, fakeMaker)).toBe('exists');
    } finally {
      await other.stop();
    }
  });
});

describe('the default demo video', () => {
  it('is a real mp4 of the requested length, made with ffmpeg by @frametext/sample-media', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'results-demo-video-'));
    try {
      const video = await makeChargerDemoVideo({ dir, seconds: 30, width: 640, height: 360 });
      expect(video.durationSeconds).toBe(30);
      const bytes = await readFile(video.path);
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
