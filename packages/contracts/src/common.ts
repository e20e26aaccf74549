import { z } from 'zod';
import { ENGINES, MEDIA_CONTENTS, SERVER_ENGINES, SORT_PREFERENCES, UPLOAD_KINDS, UPLOAD_STATUSES } from './rules.js';
import { languageOf } from './languages.js';

/** The numbers and pure helpers live in rules.ts (zod-free, for the SPA); the shared schemas are built here. */
export * from './rules.js';

export const uploadKindSchema = z.enum(UPLOAD_KINDS, { error: 'kind must be video, photos or frames' });

// ---------------------------------------------------------------- shared schemas

export const engineSchema = z.enum(ENGINES, { error: 'ocrType must be cloud, server or local' });
export const serverEngineSchema = z.enum(SERVER_ENGINES, {
  error: 'ocrType must be cloud or server here (local OCR runs in the browser and is logged with POST /logLocalUpload)',
});
export const mediaContentSchema = z.enum(MEDIA_CONTENTS, { error: 'mediaContent must be numerical, captions, presentation or scroll' });
export const sortPreferenceSchema = z.enum(SORT_PREFERENCES, { error: 'sortPreference must be name or timestamp' });
export const uploadStatusSchema = z.enum(UPLOAD_STATUSES, { error: 'status must be uploading, downloading, uploaded, processing, processed or failed' });

/** An upload id: ours are UUIDs, local ones start with `local-`, and the demo is `demo`. */
export const uploadIdSchema = z.string({ error: 'uploadID must be a string' }).trim().min(1, 'uploadID is required').max(128, 'uploadID is at most 128 characters');
/** A user id as the gateway passes it (identity's UUIDs, or a hosted provider's ids). */
export const userIdSchema = z.string().min(1).max(128);

/**
 * A language code of the language list (BCP-47 style: `en`, `zh-TW`, `mni-Mtei`). `null` stands for the
 * list's two entries without a code: Same (no translation) and Auto (detect).
 */
export const languageCodeSchema = z
  .string()
  .refine((code) => languageOf(code) !== undefined, 'language must be a code from the language list, such as en, de or zh-TW')
  .nullable();

/** A corner of a box, in image pixels. */
export const vertexSchema = z.object({ x: z.number(), y: z.number() });
export type Vertex = z.infer<typeof vertexSchema>;
/** The 4 corners of a box. */
export const quadSchema = z.array(vertexSchema).length(4, 'vertices must hold exactly 4 corner points');

/** Firestore-style timestamp that the spec's uploadData.createdAt keeps ({ _seconds }). */
export const secondsTimestampSchema = z.object({ _seconds: z.number().int().nonnegative(), _nanoseconds: z.number().int().nonnegative().optional() });
export type SecondsTimestamp = z.infer<typeof secondsTimestampSchema>;

export const isoDateTimeSchema = z.string().datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

/**
 * The body of every error answer, from every service and the gateway (service-kit's toErrorResponse): a stable,
 * machine-readable `code` (such as `request/invalid-body` or `billing/insufficient-credits`), a sentence a person can
 * read, the request's correlation id to quote to support, and sometimes `details` (which fields to fix, the balance).
 */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().min(1),
    message: z.string().min(1),
    correlationId: z.string().optional(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
