import {
  DEMO_UPLOAD_ID,
  KEPT_WORK_MAX_BYTES,
  KEPT_WORK_SCHEMAS,
  type KeptWorkResponse,
  type KeptWorkView,
  type SaveKeptWorkRequest,
  type SaveKeptWorkResponse,
} from '@frametext/contracts';
import { AppError, parseBody } from '@frametext/service-kit';
import { findKeptWork, saveKeptWorkIf, type KeptWorkKey } from '../data/kept-work.js';
import type { ResultsContext } from './context.js';
import { visibleUpload } from './uploads.js';

/*
 * A person's work in a results view, kept per upload, person and view. The owner keeps work on their own
 * uploads; everyone signed in keeps their own on the demo. Anyone else's upload answers 404 and a deleted one 410,
 * exactly as its results do.
 */

/** Checks the person may keep work on the upload (throws 404 or 410 otherwise). */
async function checkAccess(ctx: ResultsContext, userId: string, uploadId: string): Promise<void> {
  await visibleUpload(ctx, uploadId === DEMO_UPLOAD_ID ? { demo: true } : { userId }, uploadId);
}

export async function readKeptWork(ctx: ResultsContext, key: KeptWorkKey): Promise<KeptWorkResponse> {
  await checkAccess(ctx, key.userId, key.uploadId);
  const row = await findKeptWork(ctx.db, key);
  return {
    data: { view: key.view, revision: row?.revision ?? 0, document: row?.document ?? null, updatedAt: row?.updated_at.toISOString() ?? null },
  };
}

const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

/** Checks the document against its view's shape and size; answers it as it will be stored. */
function validDocument(view: KeptWorkView, document: unknown): unknown {
  const size = Buffer.byteLength(JSON.stringify(document));
  if (size > KEPT_WORK_MAX_BYTES) {
    throw new AppError(
      413,
      'work/too-large',
      `This ${view} work is ${kilobytes(size)}; at most ${kilobytes(KEPT_WORK_MAX_BYTES)} is kept per view. Remove some series or unlock some before saving.`,
    );
  }
  return parseBody(KEPT_WORK_SCHEMAS[view], document, 'work/invalid-document');
}

const isForeignKeyViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23503';

/** Saves the document as the next revision, if `body.revision` is still the latest (otherwise 409 `work/stale`). */
export async function saveKeptWork(ctx: ResultsContext, key: KeptWorkKey, body: SaveKeptWorkRequest): Promise<SaveKeptWorkResponse> {
  const document = validDocument(key.view, body.document);
  await checkAccess(ctx, key.userId, key.uploadId);
  let row;
  try {
    row = await saveKeptWorkIf(ctx.db, key, body.revision, document);
  } catch (err) {
    // The upload was deleted between the check and the write: answer as a read now would (410 or 404).
    if (isForeignKeyViolation(err)) await checkAccess(ctx, key.userId, key.uploadId);
    throw err;
  }
  if (!row) {
    const current = (await findKeptWork(ctx.db, key))?.revision ?? 0;
    throw new AppError(409, 'work/stale', `This work was changed in another tab or browser (revision ${current}; this save was based on ${body.revision}). Load it again, then save.`, {
      details: { revision: current },
    });
  }
  return { data: { revision: row.revision, updatedAt: row.updated_at.toISOString() } };
}
