import { z } from 'zod';
import {
  DEFAULT_FRAME_INTERVAL,
  DEFAULT_MEDIA_CONTENT,
  FRAME_INTERVALS,
  FRAME_MIME_TYPE,
  IMAGE_MIME_TYPES,
  LOCAL_MAX_FRAMES,
  LOCAL_SCAN_INTERVALS,
  MAX_FRAMES,
  VIDEO_MIME_TYPES,
  engineSchema,
  frameCount,
  slideDetectionFrames,
  isImageFileName,
  isVideoFileName,
  isoDateTimeSchema,
  languageCodeSchema,
  mediaContentSchema,
  serverEngineSchema,
  sortPreferenceSchema,
  uploadIdSchema,
  uploadStatusSchema,
  VIDEO_LINK_FORMS_MESSAGE,
  youtubeVideoId,
} from './common.js';

/*
 * Bodies of the upload endpoints (product spec sections 3, 5 and 7): POST /getUploadURL, POST /uploadComplete,
 * GET /checkUploadStatus/:id, GET /getUploads, POST /deleteUploads, POST /logLocalUpload.
 * Unknown keys are dropped, not refused (older clients send extra fields); types and ranges are strict.
 */

// ---------------------------------------------------------------- pieces

/** Moved to rules.ts (zod-free); still exported here for existing importers. */
export { youtubeVideoId };


/**
 * `targetFrameRate` is frames per second: 1 / the interval the user chose ("Capture text every N seconds").
 * It must correspond to one of the interval choices; `intervalFromFrameRate` gives that interval back exactly.
 */
export function intervalFromFrameRate(fps: number, choices: readonly number[] = FRAME_INTERVALS): number | undefined {
  return choices.find((interval) => Math.abs(interval * fps - 1) < 1e-6);
}

/**
 * Validation stops at the first problem: a refinement given this runs only when every check before it passed. Zod
 * runs refinements after a failed range check by default, and frameCount throws on the values those checks refuse.
 */
const ONCE_VALID = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

function frameRateSchema(choices: readonly number[]) {
  const list = choices.join(', ');
  return z
    .number({ error: `targetFrameRate must be frames per second (1 / the interval in seconds), the interval one of ${list}` })
    .positive('targetFrameRate must be above 0')
    .refine((fps) => intervalFromFrameRate(fps, choices) !== undefined, { message: `targetFrameRate must be 1 / one of the interval choices in seconds: ${list}`, ...ONCE_VALID });
}

const SIZE_RULE = 'size must be the file size in bytes, a whole number above 0';
/** A file's size as the browser reports it. */
const fileSizeSchema = z.number({ error: SIZE_RULE }).int(SIZE_RULE).positive(SIZE_RULE);

export const frameRateForIntervalsSchema = frameRateSchema(FRAME_INTERVALS);
export const localFrameRateSchema = frameRateSchema(LOCAL_SCAN_INTERVALS);
const DEFAULT_FRAME_RATE = 1 / DEFAULT_FRAME_INTERVAL;
/** Seconds between frames of a validated frame rate. */
const intervalOf = (fps: number, choices: readonly number[] = FRAME_INTERVALS) => intervalFromFrameRate(fps, choices) ?? 1 / fps;

export const uploadNameSchema = z
  .string({ error: 'Please name your upload before uploading.' })
  .trim()
  .min(1, 'Please name your upload before uploading.')
  .max(200, 'the upload name is at most 200 characters');

/** The spec ignores a link that is not a watch, embed or short link with an 11-character id: it becomes null. */
const youtubeLinkSchema = z
  .string({ error: 'youtubeLink must be a string' })
  .max(2048, 'youtubeLink is at most 2048 characters')
  .nullish()
  .transform((link) => (link && youtubeVideoId(link) ? link.trim() : null));

/** A frame's time from the start of the video in ms: the spec sends zero-padded strings ("0000015000"); numbers are accepted too. */
const frameTimestampSchema = z
  .union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()], {
    error: 'each timestamp must be whole milliseconds from the start of the video, such as "0000015000"',
  })
  .transform(Number);

/** A photo's capture time (EXIF DateTimeOriginal, else the file's last-modified time), in ms since the epoch. */
const captureTimeSchema = z.number({ error: 'each photo timestamp must be a capture time in ms since the epoch' }).int().nonnegative();

export const photoFileSchema = z.object({
  name: z.string({ error: 'each file needs its name' }).min(1, 'each file needs its name').max(255, 'file names are at most 255 characters'),
  type: z.enum(IMAGE_MIME_TYPES, { error: 'Ensure multiple uploads are all photos and either .png or .jpeg.' }),
  lastModified: z.number({ error: 'each file needs lastModified, in ms since the epoch' }).int().nonnegative(),
  size: fileSizeSchema.optional(),
});
export type PhotoFile = z.infer<typeof photoFileSchema>;

const commonRequestFields = {
  uploadName: uploadNameSchema,
  ocrType: serverEngineSchema.default('cloud'),
  mediaContent: mediaContentSchema.default(DEFAULT_MEDIA_CONTENT),
  originalLanguage: languageCodeSchema.default(null),
  targetLanguage: languageCodeSchema.default(null),
  youtubeLink: youtubeLinkSchema,
  /** Presentation only: count each new slide once instead of every frame. Defaults to on in presentation mode. */
  slideDetection: z.boolean({ error: 'slideDetection must be true or false' }).optional(),
};

/** Video uploads have no sort: the spec sends null; whatever comes is normalised to null. */
const noSort = sortPreferenceSchema.nullish().transform(() => null);

// ---------------------------------------------------------------- POST /getUploadURL

/** A source video, cut into frames on the server (the main path). One PUT URL. */
export const videoUploadRequestSchema = z.object({
  kind: z.literal('video'),
  isVideo: z.literal(true, { error: 'isVideo must be true for a video upload' }),
  mimeType: z.enum(VIDEO_MIME_TYPES, { error: 'Please upload one .mov or .mp4 at a time (mimeType video/mp4 or video/quicktime).' }),
  targetFrameRate: frameRateForIntervalsSchema.default(DEFAULT_FRAME_RATE),
  duration: z.number({ error: 'duration must be the length of the video in seconds' }).positive('duration must be the length of the video in seconds, above 0'),
  fileName: z.string().min(1).max(255).optional(),
  size: fileSizeSchema.optional(),
  timestamps: z.array(z.unknown()).max(0, 'a source video carries no timestamps; send kind "frames" to upload frames cut in the browser').nullish(),
  sortPreference: noSort,
  ...commonRequestFields,
});

/** Photos: one PUT URL per file, in the order of `files`. */
export const photosUploadRequestSchema = z.object({
  kind: z.literal('photos'),
  isVideo: z.literal(false, { error: 'isVideo must be false for photos' }),
  mimeType: z.enum(IMAGE_MIME_TYPES, { error: 'Ensure multiple uploads are all photos and either .png or .jpeg.' }),
  files: z
    .array(photoFileSchema, { error: 'files must list each photo with its name, type and lastModified (or send timestamps: each photo\'s capture time)' })
    .min(1, 'choose at least one photo')
    .max(MAX_FRAMES, `at most ${MAX_FRAMES} photos per upload; split them into several uploads`),
  /** Capture times, one per file; when absent, each file's lastModified is used. */
  timestamps: z.array(captureTimeSchema).nullish(),
  sortPreference: sortPreferenceSchema.default('name'),
  targetFrameRate: z.number().nullish().transform(() => null),
  ...commonRequestFields,
});

/** Frames cut in the browser (JPEG), one PUT URL per frame; each frame's object name starts with its timestamp. */
export const framesUploadRequestSchema = z.object({
  kind: z.literal('frames'),
  isVideo: z.literal(true, { error: 'isVideo must be true for frames cut from a video' }),
  mimeType: z.literal(FRAME_MIME_TYPE, { error: 'frames cut in the browser must be image/jpeg' }).default(FRAME_MIME_TYPE),
  targetFrameRate: frameRateForIntervalsSchema.default(DEFAULT_FRAME_RATE),
  timestamps: z
    .array(frameTimestampSchema, { error: 'timestamps must list each frame\'s time in ms' })
    .min(1, 'send at least one frame timestamp')
    .max(MAX_FRAMES, `Whoa that's a lot of frames: at most ${MAX_FRAMES} per upload. Choose a longer interval or split the video.`),
  duration: z.number().positive('duration must be the length of the video in seconds, above 0').optional(),
  fileName: z.string().min(1).max(255).optional(),
  sortPreference: noSort,
  ...commonRequestFields,
});

/** The three shapes, told apart by `kind`. Our SPA sends `kind`; its input type is {@link GetUploadUrlRequest}. */
export const uploadRequestShapesSchema = z.discriminatedUnion('kind', [videoUploadRequestSchema, photosUploadRequestSchema, framesUploadRequestSchema], {
  error: 'kind must be video, photos or frames (or send isVideo: true for a video, false for photos)',
});

const ONE_VIDEO_AT_A_TIME = 'Please upload one .mov or .mp4 at a time.';

/** Several files of which one is a video (by extension, any case, or by type): the spec's "one video at a time". */
function hasVideoAmongSeveralFiles(files: unknown): boolean {
  if (!Array.isArray(files) || files.length < 2) return false;
  return files.some((f: unknown) => {
    if (typeof f !== 'object' || f === null) return false;
    const { name, type } = f as { name?: unknown; type?: unknown };
    return (typeof name === 'string' && isVideoFileName(name)) || (typeof type === 'string' && type.startsWith('video/'));
  });
}

/**
 * The spec's request has no `kind`: it says isVideo, and frames cut in the browser come with `timestamps`.
 * We make the shape explicit with `kind` and, when a client leaves it out, derive it the spec's way:
 * isVideo false -> photos; isVideo true with timestamps -> frames; isVideo true without -> video.
 */
function withKind(body: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  if (hasVideoAmongSeveralFiles(b.files)) {
    ctx.addIssue({ code: 'custom', path: ['files'], message: ONE_VIDEO_AT_A_TIME });
    return z.NEVER;
  }
  if (b.kind !== undefined) return withPhotoFiles(b.isVideo === undefined ? { ...b, isVideo: b.kind !== 'photos' } : b);
  if (b.isVideo === false) return withPhotoFiles({ ...b, kind: 'photos' });
  if (b.isVideo === true) return { ...b, kind: Array.isArray(b.timestamps) && b.timestamps.length > 0 ? 'frames' : 'video' };
  return b;
}

/**
 * The spec's photo request names no files: it sends the photos' capture times (`timestamps`) and one type. When a
 * client leaves `files` out, each photo is named for its place (`photo-001.jpg`...) with its capture time as
 * lastModified, so the exact request of the spec gets its upload addresses, in the order of its timestamps.
 */
function withPhotoFiles(b: Record<string, unknown>): Record<string, unknown> {
  if (b.kind !== 'photos' || b.files !== undefined || !Array.isArray(b.timestamps) || b.timestamps.length === 0) return b;
  const extension = b.mimeType === 'image/png' ? 'png' : 'jpg';
  const files = b.timestamps.map((t, i) => ({ name: `photo-${String(i + 1).padStart(3, '0')}.${extension}`, type: b.mimeType, lastModified: t }));
  return { ...b, files };
}

/** Body of POST /getUploadURL, validated and normalised (kind, defaults, photo timestamps filled in). */
export const getUploadUrlRequestSchema = z
  .preprocess(withKind, uploadRequestShapesSchema)
  .superRefine((req, ctx) => {
    if (req.mediaContent === 'captions' && req.originalLanguage !== null && req.originalLanguage === req.targetLanguage) {
      ctx.addIssue({ code: 'custom', path: ['targetLanguage'], message: 'Ensure original and target languages are not equal.' });
    }
    if (req.kind === 'video') {
      if (req.fileName !== undefined && !isVideoFileName(req.fileName)) {
        ctx.addIssue({ code: 'custom', path: ['fileName'], message: ONE_VIDEO_AT_A_TIME });
      }
      // With slide detection the interval is not used (slideDetectionFrames), so it cannot ask for too many frames.
      const frames = frameCount(req.duration, intervalOf(req.targetFrameRate));
      if (frames > MAX_FRAMES && !detectsSlides(req)) {
        ctx.addIssue({
          code: 'custom',
          path: ['targetFrameRate'],
          message: `Whoa that's a lot of frames: ${frames} at one every ${intervalOf(req.targetFrameRate)} s, and the limit is ${MAX_FRAMES}. Choose a longer interval or split the video.`,
        });
      }
    }
    if (req.kind === 'frames' && new Set(req.timestamps).size !== req.timestamps.length) {
      ctx.addIssue({ code: 'custom', path: ['timestamps'], message: 'each frame timestamp must be different' });
    }
    if (req.kind === 'photos') {
      req.files.forEach((file, i) => {
        if (!isImageFileName(file.name)) ctx.addIssue({ code: 'custom', path: ['files', i, 'name'], message: 'Ensure multiple uploads are all photos and either .png or .jpeg.' });
        else if (file.type !== req.mimeType) ctx.addIssue({ code: 'custom', path: ['files', i, 'type'], message: 'Please ensure multiple uploads are the same file type.' });
      });
      if (req.timestamps && req.timestamps.length !== req.files.length) {
        ctx.addIssue({ code: 'custom', path: ['timestamps'], message: `send one timestamp per photo: ${req.files.length} files but ${req.timestamps.length} timestamps` });
      }
    }
  }, ONCE_VALID)
  .transform((req) => {
    const slideDetection = detectsSlides(req);
    if (req.kind === 'photos') return { ...req, slideDetection, timestamps: req.timestamps ?? req.files.map((f) => f.lastModified) };
    if (req.kind === 'video') return { ...req, slideDetection, timestamps: null };
    return { ...req, slideDetection };
  });

// ---------------------------------------------------------------- POST /getUploadURL, a video by link

/**
 * A video by link: the server fetches it from `youtubeLink`, a watch, embed or short link with an
 * 11-character id (the spec's forms), and the upload then goes on as an uploaded video. No file, so no mimeType,
 * duration or size: the server measures the fetched file. `kind: link`, or the spec's request (isVideo true) with a
 * youtubeLink and no mimeType. A link in another form is refused with a 400 that says which forms are taken (beside
 * a file it is still ignored, as the spec says).
 */
export const linkUploadRequestSchema = z.object({
  kind: z.literal('link').default('link'),
  isVideo: z.literal(true, { error: 'isVideo must be true for a video by link' }).default(true),
  youtubeLink: z
    .string({ error: VIDEO_LINK_FORMS_MESSAGE })
    .trim()
    .max(2048, 'youtubeLink is at most 2048 characters')
    .refine((link) => youtubeVideoId(link) !== null, VIDEO_LINK_FORMS_MESSAGE),
  targetFrameRate: frameRateForIntervalsSchema.default(DEFAULT_FRAME_RATE),
  uploadName: uploadNameSchema,
  ocrType: serverEngineSchema.default('cloud'),
  mediaContent: mediaContentSchema.default(DEFAULT_MEDIA_CONTENT),
  originalLanguage: languageCodeSchema.default(null),
  targetLanguage: languageCodeSchema.default(null),
  slideDetection: z.boolean({ error: 'slideDetection must be true or false' }).optional(),
  sortPreference: noSort,
  timestamps: z.array(z.unknown()).max(0, 'a video by link carries no timestamps').nullish(),
}).superRefine((req, ctx) => {
  if (req.mediaContent === 'captions' && req.originalLanguage !== null && req.originalLanguage === req.targetLanguage) {
    ctx.addIssue({ code: 'custom', path: ['targetLanguage'], message: 'Ensure original and target languages are not equal.' });
  }
}).transform((req) => ({ ...req, slideDetection: detectsSlides(req) }));
export type LinkUploadRequest = z.output<typeof linkUploadRequestSchema>;
/** A video by link as a client writes it (the SPA sends `kind: link`). */
export type LinkUploadRequestInput = z.input<typeof linkUploadRequestSchema>;

/** Whether a getUploadURL body asks for a video by link: `kind: link`, or isVideo with a youtubeLink and no file type. */
export function isLinkUploadRequest(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (b.kind !== undefined) return b.kind === 'link';
  return b.isVideo === true && typeof b.youtubeLink === 'string' && b.youtubeLink.trim() !== '' && b.mimeType === undefined && b.files === undefined;
}

/**
 * POST /getUploadURL's body as a client may write it, for the API description (GET /api/openapi.json); the server
 * validates with getUploadUrlRequestSchema, which accepts exactly these. Built from the same three shapes, with what
 * withKind fills in left optional: `kind` (derived from isVideo and timestamps) and, for photos, `files` when the
 * photos' capture `timestamps` are sent instead (the spec's request).
 */
export const getUploadUrlRequestBodySchema = z.union([
  videoUploadRequestSchema.partial({ kind: true }).meta({ title: 'A video, cut into frames on the server' }),
  photosUploadRequestSchema.partial({ kind: true }).meta({ title: 'Photos, each named in files' }),
  photosUploadRequestSchema
    .partial({ kind: true, files: true })
    .extend({ timestamps: z.array(captureTimeSchema).min(1).max(MAX_FRAMES) })
    .meta({ title: 'Photos by their capture times (the spec\'s request: no files list)' }),
  framesUploadRequestSchema.partial({ kind: true }).meta({ title: 'Frames cut from a video in the browser' }),
  linkUploadRequestSchema.meta({ title: 'A video by link (the server fetches it)' }),
]);

/** What the SPA sends to POST /getUploadURL. */
export type GetUploadUrlRequest = z.input<typeof uploadRequestShapesSchema>;
/** The request as the upload service sees it after validation. */
export type UploadRequest = z.output<typeof getUploadUrlRequestSchema>;

/** Whether a request turns slide detection on: presentation mode, on unless sent false (spec: default on). */
export function detectsSlides(req: { mediaContent: string; slideDetection?: boolean | null }): boolean {
  return req.mediaContent === 'presentation' && (req.slideDetection ?? true);
}

/**
 * Frames an upload request asks for, before billing caps it at what the user can pay for: a video's frames at its
 * interval, or with slide detection the most slides detection can keep (slideDetectionFrames).
 */
export function requestedFrames(req: UploadRequest): number {
  switch (req.kind) {
    case 'video':
      return req.slideDetection ? slideDetectionFrames(req.duration) : frameCount(req.duration, intervalOf(req.targetFrameRate));
    case 'photos':
      return req.files.length;
    case 'frames':
      return req.timestamps.length;
  }
}

/**
 * Answer of POST /getUploadURL: one PUT URL for a video, one per file for photos, one per frame (in the
 * order of `timestamps`). The quote fields say what will be processed: only the first `maxFrames` frames
 * when the user's credits do not cover `framesRequested`.
 */
export const getUploadUrlResponseSchema = z.object({
  urls: z.array(z.string().min(1)).min(1),
  uploadID: uploadIdSchema,
  framesRequested: z.number().int().positive().optional(),
  maxFrames: z.number().int().nonnegative().optional(),
  creditCost: z.number().int().nonnegative().optional(),
  expiresAt: isoDateTimeSchema.optional(),
});
export type GetUploadUrlResponse = z.infer<typeof getUploadUrlResponseSchema>;

// ---------------------------------------------------------------- POST /uploadComplete

export const uploadCompleteRequestSchema = z.object({ uploadID: uploadIdSchema });
export type UploadCompleteRequest = z.infer<typeof uploadCompleteRequestSchema>;

/** A 200 moves the wizard to step 2. */
export const uploadCompleteResponseSchema = z.object({
  data: z.object({ uploadID: uploadIdSchema, status: uploadStatusSchema }),
});
export type UploadCompleteResponse = z.infer<typeof uploadCompleteResponseSchema>;

// ---------------------------------------------------------------- GET /checkUploadStatus/:uploadID

/** How far the server has fetched a video by link: bytes so far, and the percent when the size is known. */
export const linkDownloadSchema = z.object({
  percent: z.number().int().min(0).max(100).nullable(),
  bytes: z.number().int().nonnegative(),
});
export type LinkDownload = z.infer<typeof linkDownloadSchema>;

/** What a processed upload's reading found (textFoundIn): the SPA says "No Text Results Found" by foundAlmostNoText. */
export const textFoundSchema = z.object({
  frames: z.number().int().nonnegative(),
  framesWithText: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
});

export const uploadIdParamsSchema = z.object({ uploadID: uploadIdSchema });
export type UploadIdParams = z.infer<typeof uploadIdParamsSchema>;

/** The SPA polls this every 2.5 s and reads data.status. `framesTotal` is null until frames are extracted. */
export const uploadStatusResponseSchema = z.object({
  data: z.object({
    uploadID: uploadIdSchema,
    status: uploadStatusSchema,
    framesDone: z.number().int().nonnegative(),
    framesTotal: z.number().int().nonnegative().nullable(),
    /**
     * While none of its frames has been read: how many uploads of the same engine, uploaded before it, are still
     * being processed (they go first in the OCR queue). 0 once its frames are being read, or when none is ahead.
     */
    uploadsAhead: z.number().int().nonnegative().optional(),
    /** A sentence a person can read, set when status is failed. */
    failureReason: z.string().nullable(),
    /** Once processed: what the reading found. */
    textFound: textFoundSchema.optional(),
    /** Once processed: the credits charged (creditsCaptured) for the frames the engine read. */
    charged: z.object({ credits: z.number().int().nonnegative(), framesRead: z.number().int().nonnegative() }).optional(),
    /** While a video by link is being fetched (status downloading): how far. */
    download: linkDownloadSchema.optional(),
  }),
});
export type UploadStatusResponse = z.infer<typeof uploadStatusResponseSchema>;

// ---------------------------------------------------------------- the upload service's internal API (results -> upload)

/**
 * GET /internal/settled-uploads/:uploadID on the upload service: the upload as POST /uploadComplete settled it, for
 * the user whose own access token the call carries (and only from results, by its workload token). results answers
 * checkUploadStatus from it while upload.completed.v1 (or upload.failed.v1) is still on its way. 404
 * upload/not-settled when that user has no such upload, it is not completed yet, or it was deleted.
 */
export const settledUploadSchema = z.object({
  uploadID: uploadIdSchema,
  /** downloading: a video by link still being fetched (not settled yet, but the owner's upload all the same). */
  status: z.enum(['uploaded', 'failed', 'downloading']),
  download: linkDownloadSchema.optional(),
  engine: serverEngineSchema,
  /** When uploadComplete accepted the files; null for an upload that failed before it did. */
  completedAt: isoDateTimeSchema.nullable(),
  /** A sentence a person can read, set when status is failed. */
  failureReason: z.string().nullable(),
});
export type SettledUpload = z.infer<typeof settledUploadSchema>;

/**
 * POST /internal/deleted-uploads on the upload service, from results' deleteUploads for the ids it has no upload of
 * (same two proofs as above): the caller's uploads among `uploadIds` that upload still holds open are cancelled
 * (`cancelled`: billing releases their holds at once), and those uploadComplete has settled but whose event results
 * has not handled yet are named (`settled`: results deletes them on its side). Others' and unknown ids are left out.
 */
export const deleteUnfinishedUploadsRequestSchema = z.object({ uploadIds: z.array(uploadIdSchema).min(1).max(500) });
export type DeleteUnfinishedUploadsRequest = z.infer<typeof deleteUnfinishedUploadsRequestSchema>;
export const deleteUnfinishedUploadsResponseSchema = z.object({ cancelled: z.array(uploadIdSchema), settled: z.array(uploadIdSchema) });
export type DeleteUnfinishedUploadsResponse = z.infer<typeof deleteUnfinishedUploadsResponseSchema>;

// ---------------------------------------------------------------- GET /getUploads

/** An upload card (spec section 3). Local records are merged in by the SPA with isLocal true. */
export const uploadListItemSchema = z.object({
  id: uploadIdSchema,
  uploadName: z.string(),
  uploadedAt: isoDateTimeSchema,
  /** Thumbnail of the first frame; null until one exists. */
  imageUrl: z.string().min(1).nullable(),
  status: uploadStatusSchema,
  mediaContent: mediaContentSchema,
  isLocal: z.boolean(),
  ocrType: engineSchema.optional(),
  /** Once processed: what the reading found (frames, frames with text, words). */
  textFound: textFoundSchema.optional(),
});
export type UploadListItem = z.infer<typeof uploadListItemSchema>;

export const getUploadsResponseSchema = z.object({ data: z.object({ uploads: z.array(uploadListItemSchema) }) });
export type GetUploadsResponse = z.infer<typeof getUploadsResponseSchema>;

// ---------------------------------------------------------------- POST /deleteUploads

/** local- ids are removed from the browser database by the SPA and never sent. */
export const deleteUploadsRequestSchema = z.object({
  uploads: z.array(uploadIdSchema, { error: 'uploads must be a list of upload ids' }).min(1, 'choose at least one upload to delete').max(500, 'delete at most 500 uploads at a time'),
  deleteUploads: z.literal(true, { error: 'deleteUploads must be true to confirm the deletion' }),
});
export type DeleteUploadsRequest = z.infer<typeof deleteUploadsRequestSchema>;

/** Ids that were the caller's and are now gone; others' ids and unknown ids are simply not listed. */
export const deleteUploadsResponseSchema = z.object({ data: z.object({ deleted: z.array(uploadIdSchema) }) });
export type DeleteUploadsResponse = z.infer<typeof deleteUploadsResponseSchema>;

// ---------------------------------------------------------------- POST /logLocalUpload

/** Logs (and charges) an OCR run done in the browser on the Local page; the record itself stays in the browser. */
export const logLocalUploadRequestSchema = z
  .object({
    uploadID: uploadIdSchema.refine((id) => id.startsWith('local-'), 'a local uploadID starts with local-'),
    uploadName: uploadNameSchema,
    mediaContent: mediaContentSchema.default(DEFAULT_MEDIA_CONTENT),
    duration: z.number({ error: 'duration must be the length of the video in seconds' }).positive('duration must be the length of the video in seconds, above 0'),
    targetFrameRate: localFrameRateSchema,
    fileName: z.string({ error: 'fileName must be the video file name' }).min(1, 'fileName must be the video file name').max(255, 'file names are at most 255 characters'),
    ocrType: z.literal('local', { error: 'ocrType must be local for a local upload' }).default('local'),
  })
  .superRefine((req, ctx) => {
    const frames = frameCount(req.duration, intervalOf(req.targetFrameRate, LOCAL_SCAN_INTERVALS));
    if (frames > LOCAL_MAX_FRAMES) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetFrameRate'],
        message: `Whoa that's a lot of frames: ${frames}, and local OCR takes at most ${LOCAL_MAX_FRAMES}. Choose a longer interval or a shorter video.`,
      });
    }
  }, ONCE_VALID);
export type LogLocalUploadRequest = z.input<typeof logLocalUploadRequestSchema>;

export const logLocalUploadResponseSchema = z.object({
  data: z.object({
    uploadID: uploadIdSchema,
    /** Credits the run cost (charged once per upload id; a repeat answers the first charge). */
    creditCost: z.number().int().nonnegative(),
    /** The balance now, after the charge. */
    credits: z.number().nonnegative().optional(),
  }),
});
export type LogLocalUploadResponse = z.infer<typeof logLocalUploadResponseSchema>;
