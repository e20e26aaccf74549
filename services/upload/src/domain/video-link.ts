import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, badRequest, checkUrlForm, enqueueEvent, errorText, RefusedDestination, unavailable } from '@frametext/service-kit';
import { MAX_FRAMES, frameCount, slideDetectionFrames, type MediaContent, type ServerEngine } from '@frametext/contracts';
import { failUploadIn, finishDownload, lockSilentDownloads, recordDownloadProgress } from '../data/uploads-repo.js';
import { checkFetchedFile, isFailure, type FetchCaps } from '../links/fetched-file.js';
import { failureOfRun, linkFailures, type LinkFailure } from '../links/fetch-failure.js';
import { startVettingProxy } from '../links/vetting-proxy.js';
import { runYtDlp } from '../links/yt-dlp.js';
import { completeUpload } from './complete-upload.js';
import type { Caller, UploadContext } from './context.js';
import { uploadFolder } from './object-keys.js';
import { holdCredits } from './credit-hold.js';
import { samplingInterval } from './sampling-interval.js';

/*
 * Videos by link. getUploadURL's youtubeLink and POST /v1/videos:annotate's https inputUri start an upload
 * whose video the server fetches with yt-dlp, in the background: the upload is `downloading` (with its progress) until
 * the file is in, checked and stored where a client's PUT would have put it; then it is completed exactly as an
 * uploaded file is (completeUpload: sealed, checked, upload.completed.v1). A fetch that cannot finish ends the upload
 * failed with a reason the person can act on, and upload.failed.v1 makes billing release the hold.
 *
 * Credits: the length is not known before the fetch, so the hold is for the most frames the request can read (the
 * duration cap at its interval, at most 360), and the length that counts is ffprobe's, of the fetched file. Billing
 * captures only the frames read and releases the rest, so nothing is charged for work not done, and no frame is read
 * without its credit held.
 */

export interface LinkOrder {
  /** The address fetched (a YouTube link rebuilt from its id). */
  link: string;
  extractor: 'youtube' | 'any';
  uploadName: string;
  engine: ServerEngine;
  mediaContent: MediaContent;
  /** Seconds between frames, or auto: chosen from the fetched video's length (samplingInterval). */
  interval: number | 'auto';
  slideDetection: boolean;
  originalLanguage: string | null;
  targetLanguage: string | null;
}

/** Every how long a fetch records its progress (and that it is alive). */
const HEARTBEAT_MS = 2_000;
/** Bytes the proxy lets in beyond the size cap: the site's pages and API answers come through it too. */
const PAGES_ALLOWANCE = 16 * 1024 * 1024;

/** How long a video by link may last for this order, and why: the cap, or 360 frames at its interval when that is less. */
export function linkDurationCap(maxSeconds: number, interval: number | 'auto', slideDetection: boolean): { maxSeconds: number; why: string } {
  const general = { maxSeconds, why: 'a video by link may last' };
  if (interval === 'auto' || slideDetection) return general;
  const byFrames = MAX_FRAMES * interval;
  return byFrames < maxSeconds ? { maxSeconds: byFrames, why: `an upload reads at one frame every ${interval} s (${MAX_FRAMES} frames)` } : general;
}

/** Frames held for a video by link: the most its order can read (see the credit rule above). */
export function linkHoldFrames(maxSeconds: number, interval: number | 'auto', slideDetection: boolean): number {
  if (interval === 'auto') return MAX_FRAMES;
  if (slideDetection) return slideDetectionFrames(maxSeconds);
  return Math.min(frameCount(linkDurationCap(maxSeconds, interval, slideDetection).maxSeconds, interval), MAX_FRAMES);
}

function linkPolicy(ctx: UploadContext) {
  return { purpose: 'video links', localHosts: ctx.config.VIDEO_LINK_LOCAL_HOSTS, appUrl: ctx.config.APP_URL };
}

/** The link's form (a full https URL, or http to a local host; no credentials): a 400 that says what to fix. */
export function checkLinkForm(ctx: UploadContext, link: string, code: string): void {
  try {
    checkUrlForm(link, linkPolicy(ctx));
  } catch (err) {
    if (err instanceof RefusedDestination) throw badRequest(code, `The video link cannot be used. ${err.message}`);
    throw err;
  }
}

/** Starts a video by link: the credits are held and the fetch runs in the background. Answers the upload and its quote. */
export async function startLinkUpload(ctx: UploadContext, caller: Caller, order: LinkOrder): Promise<{ uploadId: string; framesRequested: number; maxFrames: number; creditCost: number }> {
  const engine = await ctx.engines.check(order.engine);
  if (!engine.available) throw badRequest('upload/engine-unavailable', engine.reason ?? 'This engine is not available right now; choose Basic.');
  if (!ctx.links.hasRoom()) throw unavailable('upload/links-busy', 'Too many videos are being fetched right now. Please try again in a minute.');

  const uploadId = randomUUID();
  const framesRequested = linkHoldFrames(ctx.config.VIDEO_LINK_MAX_SECONDS, order.interval, order.slideDetection);
  const { maxFrames, creditCost } = await holdCredits(
    ctx,
    caller,
    {
      id: uploadId,
      userId: caller.userId,
      name: order.uploadName,
      kind: 'video',
      engine: order.engine,
      mediaContent: order.mediaContent,
      intervalSeconds: order.interval === 'auto' ? null : order.interval,
      intervalAuto: order.interval === 'auto',
      slideDetection: order.slideDetection,
      sortPreference: null,
      originalLanguage: order.originalLanguage,
      targetLanguage: order.targetLanguage,
      // What the fetch brings is measured and set when it is in.
      mimeType: 'video/mp4',
      fileNames: null,
      timestamps: null,
      durationSeconds: null,
      framesRequested,
      objectKeys: [`${uploadFolder(uploadId)}/source/video.mp4`],
      declaredBytes: null,
      sourceLink: order.link,
    },
    'downloading',
    async () => undefined,
  );
  ctx.links.start(uploadId, (signal) => fetchLinkedVideo(ctx, caller.userId, uploadId, order, signal));
  ctx.logger.info({ uploadId, link: order.link, framesRequested, maxFrames }, 'video by link requested; fetching');
  return { uploadId, framesRequested, maxFrames, creditCost };
}

/**
 * A fetch's heartbeat: every `everyMs`, `record` writes its progress (and that it is alive), until `fetchEnded` aborts.
 * One write at a time: each is awaited before the next wait, so writes never overlap, and none is under way once this
 * has resolved. `record` answers false when the upload is no longer downloading (deleted meanwhile), which ends the
 * heartbeat; it handles its own errors. Answers whether it ended so.
 */
export async function heartbeat(record: () => Promise<boolean>, fetchEnded: AbortSignal, everyMs = HEARTBEAT_MS): Promise<boolean> {
  try {
    for (;;) {
      await sleep(everyMs, undefined, { signal: fetchEnded });
      if (!(await record())) return true;
    }
  } catch (err) {
    // The wait is cut short when the fetch ends.
    if (fetchEnded.aborted) return false;
    throw err;
  }
}

/** Fails a fetch (downloading, or stored and not completed yet) and publishes upload.failed.v1, in one transaction. */
async function failLinkUpload(ctx: UploadContext, userId: string, uploadId: string, failure: LinkFailure): Promise<void> {
  const failed = await ctx.db.transaction(async (trx) => {
    const done = (await failUploadIn(trx, 'downloading', userId, uploadId, failure)) || (await failUploadIn(trx, 'uploading', userId, uploadId, failure));
    if (done) await enqueueEvent(trx, 'upload.failed.v1', { uploadId, userId, reason: failure.reason, stage: 'upload' });
    return done;
  });
  if (failed) {
    await ctx.storage.deletePrefix(uploadFolder(uploadId)).catch((err: unknown) => ctx.logger.warn({ err, uploadId }, 'could not remove the files of a failed video by link'));
    ctx.logger.info({ uploadId, code: failure.code, reason: failure.reason }, 'video by link failed; billing releases the hold');
  }
}

/** The background part: fetch, check, store, complete; or fail with the reason. Never throws. */
async function fetchLinkedVideo(ctx: UploadContext, userId: string, uploadId: string, order: LinkOrder, stopping: AbortSignal): Promise<void> {
  const config = ctx.config;
  const cap = linkDurationCap(config.VIDEO_LINK_MAX_SECONDS, order.interval, order.slideDetection);
  const caps: FetchCaps = { maxBytes: config.VIDEO_LINK_MAX_BYTES, maxSeconds: cap.maxSeconds, maxSecondsWhy: cap.why };
  const started = performance.now();
  const run = new AbortController();
  const stop = () => run.abort();
  stopping.addEventListener('abort', stop, { once: true });
  let overByteCap = false;
  let cancelled = false;
  let progress = { bytes: 0, total: null as number | null };
  let dir: string | undefined;
  let failure: LinkFailure | undefined;
  const proxy = await startVettingProxy({ policy: linkPolicy(ctx), maxBytesIn: caps.maxBytes + PAGES_ALLOWANCE, onLimit: () => {
      overByteCap = true;
      stop();
    } }).catch(
    (err: unknown) => err as Error,
  );
  const recordProgress = async () => {
    const percent = progress.total ? Math.min(99, Math.floor((progress.bytes * 100) / progress.total)) : null;
    try {
      return await recordDownloadProgress(ctx.db, userId, uploadId, { percent, bytes: progress.bytes });
    } catch (err) {
      ctx.logger.warn({ err, uploadId }, 'could not record the progress of a video by link');
      return true;
    }
  };
  const fetchEnded = new AbortController();
  const beating = heartbeat(recordProgress, fetchEnded.signal).then((deleted) => {
    if (!deleted) return;
    cancelled = true;
    stop();
  });
  try {
    if (proxy instanceof Error) throw proxy;
    dir = await mkdtemp(path.join(tmpdir(), 'frametext-link-'));
    const outcome = await runYtDlp({
      binary: config.YT_DLP_PATH,
      url: order.link,
      extractor: order.extractor,
      dir,
      proxyUrl: proxy.url,
      maxBytes: caps.maxBytes,
      maxSeconds: caps.maxSeconds,
      timeoutMs: config.VIDEO_LINK_TIMEOUT_SECONDS * 1000,
      onProgress: (p) => (progress = p),
      signal: run.signal,
    });
    if (cancelled) return;
    if (stopping.aborted) {
      failure = linkFailures.interrupted();
      return;
    }
    const facts = { refusal: proxy.refusal(), overByteCap, maxBytes: caps.maxBytes, maxSeconds: caps.maxSeconds, maxSecondsWhy: cap.why, timeoutSeconds: config.VIDEO_LINK_TIMEOUT_SECONDS };
    if (!outcome.file || outcome.exitCode !== 0 || facts.refusal || overByteCap) {
      failure = failureOfRun(outcome, facts);
      ctx.logger.info({ uploadId, exitCode: outcome.exitCode, messages: outcome.messages }, 'yt-dlp fetched no video');
      return;
    }
    const fetched = await checkFetchedFile(path.resolve(dir, outcome.file), dir, caps);
    if (isFailure(fetched)) {
      failure = fetched;
      return;
    }
    const intervalSeconds = order.interval === 'auto' ? samplingInterval(fetched.durationSeconds) : order.interval;
    const objectKey = `${uploadFolder(uploadId)}/source/video.${fetched.extension}`;
    await ctx.storage.put(objectKey, createReadStream(fetched.path), { contentType: fetched.mimeType, size: fetched.bytes });
    const fetchedMs = Math.round(performance.now() - started);
    if (!(await finishDownload(ctx.db, userId, uploadId, { objectKey, mimeType: fetched.mimeType, durationSeconds: fetched.durationSeconds, intervalSeconds, bytes: fetched.bytes }))) {
      // Deleted (or failed by the sweep) while it was being stored: its folder goes.
      await ctx.storage.deletePrefix(uploadFolder(uploadId)).catch(() => undefined);
      return;
    }
    ctx.logger.info({ uploadId, bytes: fetched.bytes, durationSeconds: fetched.durationSeconds, fetchedMs }, 'video by link fetched; completing it as an upload');
    // From here on it is an uploaded file: a media or quota problem fails it there, with upload.failed.v1.
    await completeUpload(ctx, userId, { uploadID: uploadId }).catch((err: unknown) => {
      if (err instanceof AppError && err.status < 500) return;
      throw err;
    });
  } catch (err) {
    ctx.logger.error({ err, uploadId }, 'a video by link could not be fetched');
    failure = linkFailures.unreachable(`a problem on our side stopped the fetch (${errorText(err)}). Please try again.`);
  } finally {
    fetchEnded.abort();
    await beating;
    stopping.removeEventListener('abort', stop);
    if (!(proxy instanceof Error)) await proxy.close();
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (failure) await failLinkUpload(ctx, userId, uploadId, failure).catch((err: unknown) => ctx.logger.error({ err, uploadId }, 'could not fail a video by link; the sweep of silent fetches will'));
  }
}

const BATCH = 100;

/**
 * Fails the videos by link whose fetch has said nothing for VIDEO_LINK_STALL_SECONDS: it died with its process (a
 * crash, a deployment). upload.failed.v1 in the same transaction, so billing releases the hold. Answers the ids.
 */
export async function failSilentFetches(ctx: Pick<UploadContext, 'db' | 'config' | 'logger' | 'storage'>, now = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - ctx.config.VIDEO_LINK_STALL_SECONDS * 1000);
  const failure = linkFailures.interrupted();
  const failed: string[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (trx) => {
      const silent = await lockSilentDownloads(trx, before, BATCH);
      for (const u of silent) {
        await failUploadIn(trx, 'downloading', u.userId, u.id, failure);
        await enqueueEvent(trx, 'upload.failed.v1', { uploadId: u.id, userId: u.userId, reason: failure.reason, stage: 'upload' });
      }
      return silent;
    });
    for (const u of batch) await ctx.storage.deletePrefix(uploadFolder(u.id)).catch(() => undefined);
    failed.push(...batch.map((u) => u.id));
    if (batch.length < BATCH) break;
  }
  if (failed.length > 0) ctx.logger.warn({ uploads: failed }, 'videos by link whose fetch went silent failed; billing releases their holds');
  return failed;
}
