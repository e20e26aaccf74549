import {
  ANNOTATE_PROGRESS_TYPE,
  ANNOTATE_RESPONSE_TYPE,
  TEXT_DETECTION,
  TEXT_DETECTION_NUMBER,
  UPLOAD_URI_PREFIX,
  operationName,
  type AnnotateOperation,
  type AnnotateVideoResponseJson,
} from '@frametext/contracts';
import { conflict } from '@frametext/service-kit';
import { durationJson, sourceFromDetails, videoTextAnnotations } from '@frametext/text-analysis';
import { framesOf, type FrameRow } from '../data/uploads.js';
import type { ResultsContext } from './context.js';
import { uploadDetails, uploadStatus, visibleUpload } from './uploads.js';

/*
 * Google Video Intelligence's text detection, answered from an upload (docs/video-intelligence.md): the
 * long-running operation of `GET /v1/{name}` is the upload's status, and its response the upload's frames grouped
 * over time (videoTextAnnotations). The same response is `GET /api/uploads/:id/export?format=gvi`.
 */

/** google.rpc.Code INTERNAL: the upload failed after it was accepted (its reason is the message). */
const FAILED_CODE = 13;

/** The upload's text as AnnotateVideoResponse (without `@type`), once it is processed. */
export async function annotationResponse(ctx: ResultsContext, userId: string, uploadId: string): Promise<AnnotateVideoResponseJson> {
  const upload = await visibleUpload(ctx, { userId }, uploadId);
  if (upload.status === 'failed') throw conflict('results/failed', `Results are not available: ${upload.failure_reason ?? 'processing failed.'}`);
  if (upload.status !== 'processed') throw conflict('export/not-ready', `This upload is still processing (status: ${upload.status}); export it once GET /api/checkUploadStatus/${uploadId} says processed.`);
  const [details, rows] = await Promise.all([uploadDetails(ctx, { userId }, uploadId), framesOf(ctx.db, uploadId, upload.frames_total)]);
  const source = sourceFromDetails(uploadId, details);
  const sizeOf = (row: FrameRow | undefined) => (row?.image_width && row.image_height ? { width: row.image_width, height: row.image_height } : null);
  const textAnnotations = videoTextAnnotations(
    source.frames.map((f) => ({ t: f.t, detections: f.detections, size: sizeOf(rows[f.index]) ?? sizeOf(rows[0]) })),
    { intervalSeconds: upload.interval_seconds ?? 1, durationSeconds: upload.duration_seconds },
  );
  return {
    annotationResults: [
      {
        inputUri: `${UPLOAD_URI_PREFIX}${uploadId}`,
        ...(upload.duration_seconds ? { segment: { startTimeOffset: '0s', endTimeOffset: durationJson(upload.duration_seconds) } } : {}),
        textAnnotations,
      },
    ],
  };
}

/**
 * The operation of an upload: in progress with its share of frames read, done with the response, or done with
 * the reason it failed. Someone else's upload and an unknown one are the same 404, as everywhere. `numericEnums`
 * when the client asked for enums as numbers (`$alt=json;enum-encoding=int`, as Google's REST transport does).
 */
export async function annotationOperation(ctx: ResultsContext, caller: { userId: string; token: string }, uploadId: string, numericEnums: boolean): Promise<AnnotateOperation> {
  const { data: status } = await uploadStatus(ctx, caller, uploadId);
  const done = status.status === 'processed' || status.status === 'failed';
  const progressPercent = done ? 100 : status.framesTotal ? Math.min(99, Math.floor((status.framesDone * 100) / status.framesTotal)) : 0;
  const metadata: AnnotateOperation['metadata'] = {
    '@type': ANNOTATE_PROGRESS_TYPE,
    annotationProgress: [{ inputUri: `${UPLOAD_URI_PREFIX}${uploadId}`, progressPercent, feature: numericEnums ? TEXT_DETECTION_NUMBER : TEXT_DETECTION }],
  };
  const name = operationName(uploadId);
  if (status.status === 'failed') return { name, metadata, done: true, error: { code: FAILED_CODE, message: status.failureReason ?? 'The video could not be read.' } };
  if (!done) return { name, metadata, done: false };
  return { name, metadata, done: true, response: { '@type': ANNOTATE_RESPONSE_TYPE, ...(await annotationResponse(ctx, caller.userId, uploadId)) } };
}
