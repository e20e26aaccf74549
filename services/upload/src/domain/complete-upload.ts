import { AppError, conflict, enqueueEvent, notFound, StorageNotFoundError } from '@frametext/service-kit';
import { uploadCompleteRequestSchema, type EventData, type UploadCompleteResponse } from '@frametext/contracts';
import { findUpload, lockUserQuota, markFailed, markUploaded, type UploadRecord } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { SNIFF_BYTES, sniffMedia, type SniffedType } from './media-sniff.js';
import { displayName, missingObject, removeObjects, sealObjects, type SealedObjects } from './sealed-objects.js';
import { makeRoomFor, QUOTA_EXCEEDED, quotaFailureReason } from './storage-quota.js';
import { DELETED_BEFORE_COMPLETION } from './delete-unfinished.js';
import { parseUploadBody } from './validation.js';

const INVALID_MEDIA = 'upload/invalid-media';

/** Why an upload fails for good at uploadComplete: its code and a sentence for the person. */
interface Failure {
  code: string;
  reason: string;
}

const uploadNotFound = () => notFound('upload/not-found', 'No such upload.');

async function readHead(ctx: UploadContext, key: string): Promise<Buffer> {
  const stream = await ctx.storage.get(key);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= SNIFF_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

/** Why the object does not hold what its upload kind needs, or undefined when it does. */
function mediaProblem(upload: UploadRecord, name: string, sniffed: SniffedType): string | undefined {
  switch (upload.kind) {
    case 'video':
      return sniffed === 'iso-bmff' ? undefined : `${name} is not a video: its content is not MP4 or MOV.`;
    case 'photos':
      return sniffed === 'png' || sniffed === 'jpeg' ? undefined : `${name} is not a photo: its content is not PNG or JPEG.`;
    case 'frames':
      return sniffed === 'jpeg' ? undefined : `Frame ${name} is not a JPEG image.`;
    case 'local':
      return undefined;
  }
}

/** Checks the sealed copies (what the pipeline will read): none empty, each of the type its upload kind needs. */
async function mediaFailure(ctx: UploadContext, upload: UploadRecord, sealed: SealedObjects): Promise<Failure | undefined> {
  for (const [i, key] of sealed.keys.entries()) {
    const name = displayName(upload, i);
    if (sealed.sizes[i] === 0) return { code: INVALID_MEDIA, reason: `${name} is empty.` };
    const head = await readHead(ctx, key).catch((err: unknown) => {
      if (err instanceof StorageNotFoundError) throw missingObject(upload, i);
      throw err;
    });
    const problem = mediaProblem(upload, name, sniffMedia(head));
    if (problem) return { code: INVALID_MEDIA, reason: problem };
  }
  return undefined;
}

function completedEvent(upload: UploadRecord, sealedKeys: string[]): EventData<'upload.completed.v1'> {
  const { kind, engine } = upload;
  if (kind === 'local' || engine === 'local') throw new Error('local runs are never completed through uploadComplete');
  return {
    uploadId: upload.id,
    userId: upload.userId,
    uploadName: upload.name,
    kind,
    objectKeys: sealedKeys,
    mimeType: upload.mimeType,
    fileNames: upload.fileNames,
    timestamps: upload.timestamps,
    engine,
    mediaContent: upload.mediaContent,
    intervalSeconds: upload.intervalSeconds,
    slideDetection: upload.slideDetection,
    sortPreference: upload.sortPreference,
    maxFrames: upload.framesAllowed,
    creditCost: upload.creditCost,
    originalLanguage: upload.originalLanguage,
    targetLanguage: upload.targetLanguage,
    durationSeconds: upload.durationSeconds,
    createdAt: upload.createdAt.toISOString(),
  };
}

function outcome(upload: UploadRecord): UploadCompleteResponse {
  if (upload.status === 'downloading') {
    throw conflict('upload/fetching-link', 'This video is being fetched from its link: it completes by itself; follow it with checkUploadStatus.');
  }
  if (upload.status === 'failed') {
    const status = upload.failureCode === QUOTA_EXCEEDED ? 413 : upload.failureCode === DELETED_BEFORE_COMPLETION.code ? 410 : 400;
    throw new AppError(status, upload.failureCode ?? INVALID_MEDIA, upload.failureReason ?? 'This upload failed. Please start a new one.');
  }
  return { data: { uploadID: upload.id, status: 'uploaded' } };
}

/**
 * POST /uploadComplete: the owner says the bytes are in. Seals them (copies no URL can overwrite), checks the
 * sealed copies (their type, and their size against the user's storage quota), then in one transaction sets the
 * status and writes upload.completed.v1 naming the sealed keys (or upload.failed.v1, so billing releases the hold)
 * to the outbox. What sits at the presigned keys is deleted: after
 * a success nothing reads it, after a failure nothing will. Idempotent: a second call answers the first call's
 * outcome and publishes nothing.
 */
export async function completeUpload(ctx: UploadContext, userId: string, body: unknown): Promise<UploadCompleteResponse> {
  const { uploadID } = parseUploadBody(uploadCompleteRequestSchema, body);
  const upload = await findUpload(ctx.db, userId, uploadID);
  if (!upload || upload.kind === 'local') throw uploadNotFound();
  if (upload.status !== 'uploading') return outcome(upload);

  let sealed: SealedObjects;
  try {
    sealed = await sealObjects(ctx, upload);
  } catch (err) {
    // A call racing this one may have settled the upload meanwhile and removed the objects at the presigned keys,
    // which this call was still copying: it then answers that outcome, as it would had it come a moment later.
    const now = await findUpload(ctx.db, userId, uploadID);
    if (now && now.status !== 'uploading') return outcome(now);
    throw err;
  }
  const bytes = sealed.sizes.reduce((sum, size) => sum + size, 0);
  let settled: UploadRecord;
  let won = false;
  try {
    const mediaProblem = await mediaFailure(ctx, upload, sealed);
    if (!mediaProblem) await makeRoomFor(ctx, userId, uploadID, bytes);
    settled = await ctx.db.transaction(async (trx) => {
      // Two calls may race here: the row lock lets one of them settle the upload; the other answers its outcome.
      const current = await findUpload(trx, userId, uploadID, { forUpdate: true });
      if (!current) throw uploadNotFound();
      if (current.status !== 'uploading') return current;
      won = true;
      await lockUserQuota(trx, userId);
      const overQuota = mediaProblem ? undefined : await quotaFailureReason(trx, ctx.config.STORAGE_QUOTA_BYTES, userId, uploadID, bytes);
      const failure: Failure | undefined = mediaProblem ?? (overQuota ? { code: QUOTA_EXCEEDED, reason: overQuota } : undefined);
      if (failure) {
        await markFailed(trx, userId, uploadID, failure);
        await enqueueEvent(trx, 'upload.failed.v1', { uploadId: uploadID, userId, reason: failure.reason, stage: 'upload' });
        return { ...current, status: 'failed' as const, failureCode: failure.code, failureReason: failure.reason };
      }
      const completedAt = new Date();
      await markUploaded(trx, userId, uploadID, completedAt, { keys: sealed.keys, bytes });
      await enqueueEvent(trx, 'upload.completed.v1', completedEvent(current, sealed.keys));
      return { ...current, status: 'uploaded' as const, completedAt, sealedKeys: sealed.keys, sourceBytes: bytes };
    });
  } catch (err) {
    await removeObjects(ctx, sealed.keys);
    throw err;
  }

  // Keep the sealed copies only when this call completed the upload; the presigned keys' objects go either way.
  const kept = won && settled.status === 'uploaded';
  await removeObjects(ctx, kept ? upload.objectKeys : [...sealed.keys, ...(won ? upload.objectKeys : [])]);
  ctx.logger.info({ uploadId: uploadID, status: settled.status, reason: settled.failureReason ?? undefined }, 'upload settled');
  return outcome(settled);
}
