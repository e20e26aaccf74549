import { AppError, badRequest, enqueueEvent, notFound, StorageNotFoundError } from '@frametext/service-kit';
import { uploadCompleteRequestSchema, type EventData, type UploadCompleteResponse } from '@frametext/contracts';
import { findUpload, markFailed, markUploaded, type UploadRecord } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { SNIFF_BYTES, sniffMedia, type SniffedType } from './media-sniff.js';
import { parseUploadBody } from './validation.js';

const INVALID_MEDIA = 'upload/invalid-media';

/** A stored object that is not what the upload said it is: the upload fails for good. */
class InvalidMedia {
  constructor(readonly reason: string) {}
}

const uploadNotFound = () => notFound('upload/not-found', 'No such upload.');

/** The name the user knows a file by: their own file name, else the object's. */
function displayName(upload: UploadRecord, index: number): string {
  return upload.fileNames?.[index] ?? upload.objectKeys[index]!.slice(upload.objectKeys[index]!.lastIndexOf('/') + 1);
}

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

/**
 * Every object is there and holds what it claims. A missing one is the client's to fix (upload it, call again);
 * content of the wrong kind fails the upload.
 */
async function checkObjects(ctx: UploadContext, upload: UploadRecord): Promise<InvalidMedia | undefined> {
  const infos = await Promise.all(upload.objectKeys.map((key) => ctx.storage.head(key)));
  const missing = infos.findIndex((info) => info === null);
  if (missing >= 0) {
    throw badRequest('upload/missing-object', `${displayName(upload, missing)} has not been uploaded yet. Upload it to its URL, then call uploadComplete again.`, {
      objectKey: upload.objectKeys[missing],
    });
  }
  for (const [i, key] of upload.objectKeys.entries()) {
    const name = displayName(upload, i);
    if (infos[i]!.size === 0) return new InvalidMedia(`${name} is empty.`);
    const head = await readHead(ctx, key).catch((err: unknown) => {
      if (err instanceof StorageNotFoundError) throw badRequest('upload/missing-object', `${name} has not been uploaded yet.`, { objectKey: key });
      throw err;
    });
    const problem = mediaProblem(upload, name, sniffMedia(head));
    if (problem) return new InvalidMedia(problem);
  }
  return undefined;
}

function completedEvent(upload: UploadRecord): EventData<'upload.completed.v1'> {
  const { kind, engine } = upload;
  if (kind === 'local' || engine === 'local') throw new Error('local runs are never completed through uploadComplete');
  return {
    uploadId: upload.id,
    userId: upload.userId,
    uploadName: upload.name,
    kind,
    objectKeys: upload.objectKeys,
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
  if (upload.status === 'failed') {
    throw new AppError(400, upload.failureCode ?? INVALID_MEDIA, upload.failureReason ?? 'This upload failed. Please start a new one.');
  }
  return { data: { uploadID: upload.id, status: 'uploaded' } };
}

/**
 * POST /uploadComplete: the owner says the bytes are in. Checks them, then in one transaction sets the
 * status and writes upload.completed.v1 (or upload.failed.v1, so billing releases the hold) to the outbox.
 * Idempotent: a second call answers the first call's outcome and publishes nothing.
 */
export async function completeUpload(ctx: UploadContext, userId: string, body: unknown): Promise<UploadCompleteResponse> {
  const { uploadID } = parseUploadBody(uploadCompleteRequestSchema, body);
  const upload = await findUpload(ctx.db, userId, uploadID);
  if (!upload || upload.kind === 'local') throw uploadNotFound();
  if (upload.status !== 'uploading') return outcome(upload);

  const invalid = await checkObjects(ctx, upload);
  const settled = await ctx.db.transaction(async (trx) => {
    // Two calls may race here: the row lock lets one of them settle the upload; the other answers its outcome.
    const current = await findUpload(trx, userId, uploadID, { forUpdate: true });
    if (!current) throw uploadNotFound();
    if (current.status !== 'uploading') return current;
    if (invalid) {
      await markFailed(trx, userId, uploadID, { code: INVALID_MEDIA, reason: invalid.reason });
      await enqueueEvent(trx, 'upload.failed.v1', { uploadId: uploadID, userId, reason: invalid.reason, stage: 'upload' });
      return { ...current, status: 'failed' as const, failureCode: INVALID_MEDIA, failureReason: invalid.reason };
    }
    const completedAt = new Date();
    await markUploaded(trx, userId, uploadID, completedAt);
    await enqueueEvent(trx, 'upload.completed.v1', completedEvent(current));
    return { ...current, status: 'uploaded' as const, completedAt };
  });
  ctx.logger.info({ uploadId: uploadID, status: settled.status, reason: settled.failureReason ?? undefined }, 'upload settled');
  return outcome(settled);
}
