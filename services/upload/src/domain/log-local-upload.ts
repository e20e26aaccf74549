import {
  LOCAL_SCAN_INTERVALS,
  fileExtension,
  frameCount,
  intervalFromFrameRate,
  logLocalUploadRequestSchema,
  type LogLocalUploadResponse,
} from '@frametext/contracts';
import { conflict } from '@frametext/service-kit';
import { findUpload } from '../data/uploads-repo.js';
import { insertUploadOfLiveAccount } from './account-deletion.js';
import type { Caller, UploadContext } from './context.js';
import { parseUploadBody } from './validation.js';

/**
 * POST /logLocalUpload: records an OCR run done in the browser (the results stay there) and charges it at the
 * local rate through billing, once per upload id: logging the same run again (the browser saving again, a retry
 * after a lost answer) answers the first charge and charges nothing. Credits below the cost answer billing's 402
 * and record nothing. Billing is asked first: the row is written only for a run that is paid for, and a crash
 * between the two leaves a charge whose retry writes the row (billing answers the same charge again).
 */
export async function logLocalUpload(ctx: UploadContext, caller: Caller, body: unknown): Promise<LogLocalUploadResponse> {
  const req = parseUploadBody(logLocalUploadRequestSchema, body);
  const interval = intervalFromFrameRate(req.targetFrameRate, LOCAL_SCAN_INTERVALS) ?? 1 / req.targetFrameRate;
  const frames = frameCount(req.duration, interval);
  const { userId } = caller;
  const existing = await findUpload(ctx.db, userId, req.uploadID);
  if (existing && existing.kind !== 'local') throw conflict('upload/id-taken', 'This upload id is already in use.');

  const charge = await ctx.billing.chargeLocalUse({ uploadId: req.uploadID, userId, frames }, caller.accessToken);
  if (charge.outcome !== 'charged') throw charge.error;
  const { creditCost: cost, credits } = charge.charge;

  await insertUploadOfLiveAccount(ctx, {
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
  return { data: { uploadID: req.uploadID, creditCost: cost, credits } };
}
