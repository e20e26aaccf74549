import { randomBytes } from 'node:crypto';
import { badRequest, StorageNotFoundError } from '@frametext/service-kit';
import type { UploadRecord } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';

/*
 * A presigned PUT URL keeps working until it expires, so the bytes at its key can change after uploadComplete
 * checked them. uploadComplete therefore seals each object first: a copy inside the store at a key no URL points
 * at, which is then checked and handed to the pipeline. Each call seals into a folder of its own, so two calls
 * racing on one upload never overwrite each other's checked copy; only the call that settles the upload keeps its.
 */

/** The folder of an upload's sealed copies; one sub-folder per uploadComplete call. */
export function sealedFolder(uploadId: string): string {
  return `uploads/${uploadId}/sealed`;
}

/** `uploads/<id>/source/video.mp4` -> `uploads/<id>/sealed/<attempt>/source/video.mp4` (the file name, which may carry a timestamp, is kept). */
export function sealedKeyFor(uploadId: string, attempt: string, key: string): string {
  const base = `uploads/${uploadId}/`;
  const rest = key.startsWith(base) ? key.slice(base.length) : key;
  return `${sealedFolder(uploadId)}/${attempt}/${rest}`;
}

export interface SealedObjects {
  keys: string[];
  /** Bytes of each sealed copy, in key order. */
  sizes: number[];
}

/** The name the user knows a file by: their own file name, else the object's. */
export function displayName(upload: UploadRecord, index: number): string {
  const key = upload.objectKeys[index]!;
  return upload.fileNames?.[index] ?? key.slice(key.lastIndexOf('/') + 1);
}

export const missingObject = (upload: UploadRecord, index: number) =>
  badRequest('upload/missing-object', `${displayName(upload, index)} has not been uploaded yet. Upload it to its URL, then call uploadComplete again.`, {
    objectKey: upload.objectKeys[index],
  });

/**
 * Copies every object of the upload to its sealed key and reads back each copy's size. A missing object is the
 * client's to fix (a 400 naming the file); the copies made so far are removed then.
 */
export async function sealObjects(ctx: UploadContext, upload: UploadRecord): Promise<SealedObjects> {
  const attempt = randomBytes(6).toString('hex');
  const keys = upload.objectKeys.map((key) => sealedKeyFor(upload.id, attempt, key));
  try {
    for (const [i, key] of upload.objectKeys.entries()) {
      try {
        await ctx.storage.copy(key, keys[i]!);
      } catch (err) {
        if (err instanceof StorageNotFoundError) throw missingObject(upload, i);
        throw err;
      }
    }
    const infos = await Promise.all(keys.map((key) => ctx.storage.head(key)));
    const lost = infos.findIndex((info) => info === null);
    // Only a deletion of the whole upload meanwhile (results) removes a sealed copy.
    if (lost >= 0) throw missingObject(upload, lost);
    return { keys, sizes: infos.map((info) => info!.size) };
  } catch (err) {
    await removeObjects(ctx, keys);
    throw err;
  }
}

/** Deletes objects, logging (not throwing) what could not be deleted: the sweep of presigned keys tries again later. */
export async function removeObjects(ctx: Pick<UploadContext, 'storage' | 'logger'>, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
    } catch (err) {
      ctx.logger.warn({ err, key }, 'could not delete an upload object; the sweep will try again');
    }
  }
}
