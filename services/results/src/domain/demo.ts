import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_UPLOAD_ID, frameCount } from '@frametext/contracts';
import { enqueueEvent } from '@frametext/service-kit';
import { uploadFolder, type ResultsContext } from './context.js';

/** Makes the demo's sample video (an mp4) in `dir`. */
export type DemoVideoMaker = (opts: { dir: string; seconds: number; width: number; height: number }) => Promise<{ path: string; durationSeconds: number }>;

export const DEMO_USER_ID = 'demo';
export const DEMO_VIDEO_KEY = `${uploadFolder(DEMO_UPLOAD_ID)}/source/video.mp4`;
const DEMO_WIDTH = 1280;
const DEMO_HEIGHT = 720;

/** The charger-screen video of @frametext/sample-media (ffmpeg), loaded only when a demo is seeded. */
export const makeChargerDemoVideo: DemoVideoMaker = async (opts) => {
  const { makeChargerVideo } = await import('@frametext/sample-media');
  return makeChargerVideo(opts);
};

export type DemoSeedOutcome = 'seeded' | 'exists';

/** A claim this old that never got as far as sending the demo into the pipeline belonged to a replica that died. */
export const STALE_CLAIM_MINUTES = 10;

/**
 * Seeds the public demo when it does not exist: claims it with a unique row (so one replica seeds, however many
 * start), makes the sample video, stores it where the upload service would, and enqueues upload.completed.v1, so
 * the real pipeline (frame extraction, OCR, results) processes it. A failed attempt drops its claim so that the
 * next start tries again; a claim left unfinished by a replica that died (never seeded, older than
 * STALE_CLAIM_MINUTES) is taken over.
 */
export async function seedDemo(ctx: ResultsContext, makeVideo: DemoVideoMaker): Promise<DemoSeedOutcome> {
  const { db, storage, config, logger } = ctx;
  if (await db('uploads').where({ id: DEMO_UPLOAD_ID }).first()) return 'exists';
  const claimed = await db('demo_seeds')
    .insert({ upload_id: DEMO_UPLOAD_ID })
    .onConflict('upload_id')
    .merge({ claimed_at: db.fn.now() })
    .where(db.raw(`demo_seeds.seeded_at is null and demo_seeds.claimed_at < now() - make_interval(mins => ?)`, [STALE_CLAIM_MINUTES]))
    .returning('upload_id');
  if (claimed.length === 0) return 'exists';

  const dir = await mkdtemp(join(tmpdir(), 'frametext-demo-'));
  try {
    const video = await makeVideo({ dir, seconds: config.DEMO_VIDEO_SECONDS, width: DEMO_WIDTH, height: DEMO_HEIGHT });
    const { size } = await stat(video.path);
    await storage.put(DEMO_VIDEO_KEY, createReadStream(video.path), { contentType: 'video/mp4', size });
    const interval = config.DEMO_INTERVAL_SECONDS;
    await db.transaction(async (trx) => {
      await enqueueEvent(trx, 'upload.completed.v1', {
        uploadId: DEMO_UPLOAD_ID,
        userId: DEMO_USER_ID,
        uploadName: 'Demo: EV charger screen',
        kind: 'video',
        objectKeys: [DEMO_VIDEO_KEY],
        mimeType: 'video/mp4',
        fileNames: ['video.mp4'],
        timestamps: null,
        engine: 'server',
        mediaContent: 'numerical',
        intervalSeconds: interval,
        slideDetection: false,
        sortPreference: null,
        maxFrames: frameCount(video.durationSeconds, interval),
        creditCost: 0,
        originalLanguage: null,
        targetLanguage: null,
        durationSeconds: video.durationSeconds,
        createdAt: new Date().toISOString(),
      });
      await trx('demo_seeds').where({ upload_id: DEMO_UPLOAD_ID }).update({ seeded_at: trx.fn.now() });
    });
    logger.info({ durationSeconds: video.durationSeconds }, 'demo upload seeded; the pipeline processes it now');
    return 'seeded';
  } catch (err) {
    await db('demo_seeds').where({ upload_id: DEMO_UPLOAD_ID }).del();
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
