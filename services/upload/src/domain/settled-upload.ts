import type { SettledUpload } from '@frametext/contracts';
import { notFound } from '@frametext/service-kit';
import { findUpload } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';

/**
 * The user's upload as uploadComplete settled it: uploaded, or failed with its reason; or a video by link still
 * being fetched, with how far (its upload is the user's from getUploadURL on, and has no event yet). results asks for it while
 * the event that tells it of the upload is still on its way. An upload that is the user's only while open (not
 * completed yet), local, deleted, or someone else's answers 404, as a missing one.
 */
export async function settledUpload(ctx: Pick<UploadContext, 'db'>, userId: string, uploadId: string): Promise<SettledUpload> {
  const upload = await findUpload(ctx.db, userId, uploadId);
  // A video by link is `uploading` for a moment once fetched, while it is checked and completed: still its fetch.
  if ((upload?.status === 'downloading' || (upload?.status === 'uploading' && upload.sourceLink)) && !upload.deletedAt) {
    return {
      uploadID: upload.id,
      status: 'downloading',
      engine: upload.engine === 'local' ? 'server' : upload.engine,
      completedAt: null,
      failureReason: null,
      download: { percent: upload.downloadPercent, bytes: upload.downloadBytes ?? 0 },
    };
  }
  if (!upload || upload.kind === 'local' || upload.engine === 'local' || upload.deletedAt || (upload.status !== 'uploaded' && upload.status !== 'failed')) {
    throw notFound('upload/not-settled', 'This user has no completed upload with this id.');
  }
  return {
    uploadID: upload.id,
    status: upload.status,
    engine: upload.engine,
    completedAt: upload.completedAt?.toISOString() ?? null,
    failureReason: upload.status === 'failed' ? upload.failureReason : null,
  };
}
