import { z } from 'zod';

/*
 * The Google Video Intelligence–compatible text detection: `POST /v1/videos:annotate` with TEXT_DETECTION
 * and `GET /v1/{operation name}`, in Google's JSON mapping of google.cloud.videointelligence.v1 (the .proto that ships
 * in @google-cloud/video-intelligence). The request as Google's REST clients send it, the long-running operation
 * and Google's error body. docs/video-intelligence.md says what maps one to one and what differs.
 */

const V1 = 'type.googleapis.com/google.cloud.videointelligence.v1.';
export const ANNOTATE_PROGRESS_TYPE = `${V1}AnnotateVideoProgress`;
export const ANNOTATE_RESPONSE_TYPE = `${V1}AnnotateVideoResponse`;

/**
 * An operation is an upload: its name is the upload's id under Google's collection, one segment each, so the
 * client's path template (`/v1/{name=projects/*\/locations/*\/operations/*}`) takes it as it is.
 */
export const OPERATION_NAME_PREFIX = 'projects/-/locations/-/operations/';
export const operationName = (uploadId: string) => `${OPERATION_NAME_PREFIX}${uploadId}`;

/** `inputUri` of a video already uploaded to FrameText: `frametext://uploads/<upload id>`. */
export const UPLOAD_URI_PREFIX = 'frametext://uploads/';

/** The largest `videos:annotate` body: a video of up to about 48 MB in base64, with its JSON around it. */
export const ANNOTATE_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/** The one feature served, by name and by the number clients send with numeric enums (REST transport). */
export const TEXT_DETECTION = 'TEXT_DETECTION';
export const TEXT_DETECTION_NUMBER = 7;
/** The other features' names, so a refusal can name the one asked for. */
export const VIDEO_FEATURES: Readonly<Record<number, string>> = {
  0: 'FEATURE_UNSPECIFIED',
  1: 'LABEL_DETECTION',
  2: 'SHOT_CHANGE_DETECTION',
  3: 'EXPLICIT_CONTENT_DETECTION',
  4: 'FACE_DETECTION',
  6: 'SPEECH_TRANSCRIPTION',
  7: TEXT_DETECTION,
  9: 'OBJECT_TRACKING',
  12: 'LOGO_RECOGNITION',
  14: 'PERSON_DETECTION',
};

const durationJson = z.string().regex(/^-?\d+(\.\d{1,9})?s$/, 'a duration such as "1.5s"');
const videoSegmentSchema = z.strictObject({ startTimeOffset: durationJson.optional(), endTimeOffset: durationJson.optional() });

/**
 * AnnotateVideoRequest in the JSON mapping (field names in lowerCamelCase; the server also takes the proto's
 * snake_case names, as Google's does). Fields this service cannot honour are refused by name, not ignored.
 */
export const annotateVideoRequestSchema = z.strictObject({
  inputUri: z.string().optional().describe(`A video already uploaded to FrameText: ${UPLOAD_URI_PREFIX}<upload id>. gs:// addresses are not read.`),
  inputContent: z.string().optional().describe('The video (MP4 or MOV) in base64. Exactly one of inputUri and inputContent.'),
  // Required, as in Google's API; optional here so that its absence gets its own sentence.
  features: z.array(z.union([z.string(), z.number().int()])).optional().describe(`Exactly ["${TEXT_DETECTION}"] (or [${TEXT_DETECTION_NUMBER}]).`),
  videoContext: z
    .strictObject({
      textDetectionConfig: z
        .strictObject({
          languageHints: z.array(z.string()).optional().describe('BCP-47 codes; the first one FrameText reads is the language on screen.'),
          model: z.string().optional().describe('Accepted and ignored: FrameText has one model per language.'),
        })
        .optional(),
      segments: z.array(videoSegmentSchema).optional().describe('Not supported: the whole video is read.'),
    })
    .optional(),
  outputUri: z.string().optional().describe('Not supported: the result is in the operation, and as GET /api/uploads/{id}/export?format=gvi.'),
  locationId: z.string().optional().describe('Accepted and ignored.'),
});
export type AnnotateVideoRequest = z.infer<typeof annotateVideoRequestSchema>;

/** `POST /v1/videos:annotate` answers the operation's name at once. */
export const annotateVideoAnswerSchema = z.strictObject({ name: z.string() });

const normalizedVertexSchema = z.strictObject({ x: z.number().optional(), y: z.number().optional() });
export const textFrameSchema = z.strictObject({
  rotatedBoundingBox: z.strictObject({ vertices: z.array(normalizedVertexSchema) }).optional(),
  timeOffset: durationJson,
});
export const textSegmentSchema = z.strictObject({
  segment: z.strictObject({ startTimeOffset: durationJson, endTimeOffset: durationJson }),
  confidence: z.number().min(0).max(1).optional(),
  frames: z.array(textFrameSchema),
});
export const textAnnotationSchema = z.strictObject({ text: z.string(), segments: z.array(textSegmentSchema), version: z.string().optional() });
export type TextAnnotationJson = z.infer<typeof textAnnotationSchema>;
export type TextSegmentJson = z.infer<typeof textSegmentSchema>;

export const videoAnnotationResultsSchema = z.strictObject({
  inputUri: z.string().optional(),
  segment: z.strictObject({ startTimeOffset: durationJson, endTimeOffset: durationJson }).optional(),
  textAnnotations: z.array(textAnnotationSchema),
});
export type VideoAnnotationResultsJson = z.infer<typeof videoAnnotationResultsSchema>;

/** AnnotateVideoResponse without its `@type`: also the file of `GET /api/uploads/{id}/export?format=gvi`. */
export const annotateVideoResponseSchema = z.strictObject({ annotationResults: z.array(videoAnnotationResultsSchema) });
export type AnnotateVideoResponseJson = z.infer<typeof annotateVideoResponseSchema>;

const progressSchema = z.strictObject({
  '@type': z.literal(ANNOTATE_PROGRESS_TYPE),
  annotationProgress: z.array(
    z.strictObject({
      inputUri: z.string().optional(),
      progressPercent: z.number().int().min(0).max(100),
      startTime: z.string().optional(),
      updateTime: z.string().optional(),
      feature: z.union([z.literal(TEXT_DETECTION), z.literal(TEXT_DETECTION_NUMBER)]),
    }),
  ),
});

/** google.rpc.Status as an operation's `error`: a gRPC code (3 invalid argument, 5 not found, 13 internal...). */
const rpcStatusSchema = z.strictObject({ code: z.number().int(), message: z.string() });

/** google.longrunning.Operation, as `GET /v1/{name}` answers it. */
export const annotateOperationSchema = z.strictObject({
  name: z.string(),
  metadata: progressSchema,
  done: z.boolean(),
  response: annotateVideoResponseSchema.extend({ '@type': z.literal(ANNOTATE_RESPONSE_TYPE) }).optional(),
  error: rpcStatusSchema.optional(),
});
export type AnnotateOperation = z.infer<typeof annotateOperationSchema>;

/** Google's error body (google.rpc.Status in HTTP form): the HTTP status, a sentence, the canonical status name. */
export const googleErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.number().int(),
    message: z.string(),
    status: z.string(),
    details: z.array(z.looseObject({ '@type': z.string() })).optional(),
  }),
});
export type GoogleErrorBody = z.infer<typeof googleErrorBodySchema>;

/** The canonical status (google.rpc.Code) an HTTP status stands for, as Google's APIs pair them. */
export function googleStatusOf(httpStatus: number): string {
  const known: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    // Out of credits: the account's quota of work, as Google answers an exhausted quota.
    402: 'RESOURCE_EXHAUSTED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    405: 'UNIMPLEMENTED',
    408: 'DEADLINE_EXCEEDED',
    409: 'FAILED_PRECONDITION',
    410: 'NOT_FOUND',
    413: 'INVALID_ARGUMENT',
    415: 'INVALID_ARGUMENT',
    429: 'RESOURCE_EXHAUSTED',
    501: 'UNIMPLEMENTED',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
  };
  return known[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : httpStatus >= 400 ? 'FAILED_PRECONDITION' : 'UNKNOWN');
}

/**
 * FrameText's error (status, stable code, sentence) in Google's shape. The sentence is FrameText's own, word for
 * word; its code travels as an ErrorInfo `reason`, which Google's clients expose as `error.reason`.
 */
export function googleErrorBody(httpStatus: number, code: string, message: string): GoogleErrorBody {
  return {
    error: {
      code: httpStatus,
      message,
      status: googleStatusOf(httpStatus),
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'frametext' }],
    },
  };
}
