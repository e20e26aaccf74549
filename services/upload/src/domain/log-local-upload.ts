import {
  LOCAL_SCAN_INTERVALS,
  creditCost,
  fileExtension,
  frameCount,
  intervalFromFrameRate,
  logLocalUploadRequestSchema,
  type LogLocalUploadResponse,
} from '@frametext/contracts';
import { conflict } from '@frametext/service-kit';
import { findUpload, insertUpload } from '../data/uploads-repo.js';
import type { UploadContext } from './context.js';
import { parseUploadBody } from './validation.js';

/**
 * POST /logLocalUpload: records an OCR run done in the browser (the results stay there) with what it would
 * cost. Charging it is left to the local OCR issue, so the answer carries the cost but no balance.
 * Idempotent by the browser's id: logging the same run again answers the same.
 */
export async function logLocalUpload(ctx: UploadContext, userId: string, body: unknown): Promise<LogLocalUploadResponse> {
  const req = parseUploadBody(logLocalUploadRequestSchema, body);
  const interval = intervalFromFrameRate(req.targetFrameRate, LOCAL_SCAN_INTERVALS) ?? 1 / req.targetFrameRate;
  const frames = frameCount(req.duration, interval);
  const cost = creditCost(frames, 'local');
  const inserted = await insertUpload(ctx.db, {
    id: req.uploadID,
    userId,
    name: req.uploadName,
    kind: 'local',
    engine: 'local',
    mediaContent: req.mediaContent,
    intervalSeconds: interval,
    slideDetection: false,
    sortPreference: null,
    originalLanguage: null,
    targetLanguage: null,
    mimeType: fileExtension(req.fileName) === 'mov' ? 'video/quicktime' : 'video/mp4',
    fileNames: [req.fileName],
    timestamps: null,
    durationSeconds: req.duration,
    framesRequested: frames,
    framesAllowed: frames,
    creditCost: cost,
    objectKeys: [],
    status: 'uploaded',
    completedAt: new Date(),
  });
  if (!inserted) {
    const existing = await findUpload(ctx.db, userId, req.uploadID);
    if (existing?.kind !== 'local') throw conflict('upload/id-taken', 'This upload id is already in use.');
    return { data: { uploadID: existing.id, creditCost: existing.creditCost } };
  }
  return { data: { uploadID: req.uploadID, creditCost: cost } };
}
