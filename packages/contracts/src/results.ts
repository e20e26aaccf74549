import { z } from 'zod';
import {
  engineSchema,
  isoDateTimeSchema,
  languageCodeSchema,
  mediaContentSchema,
  quadSchema,
  secondsTimestampSchema,
  sortPreferenceSchema,
  uploadKindSchema,
  uploadStatusSchema,
  userIdSchema,
} from './common.js';

/*
 * Bodies of the results endpoints (results spec sections 3 and 7): GET /getUploadDetails/:id and
 * GET /getUploadDetailsOld/:id (the id `demo` serves the demo), and the per-frame detections the OCR
 * workers produce.
 */

/** Confidence from 0 to 100 (the viewers multiply values under 1 by 100, so 0..1 is accepted too). */
export const confidenceSchema = z.number().min(0, 'confidence is from 0 to 100').max(100, 'confidence is from 0 to 100');

/** One recognised word inside a detection (Tesseract TSV words keep their own box and confidence). */
export const wordSchema = z.object({
  text: z.string(),
  vertices: quadSchema,
  confidence: confidenceSchema.optional(),
});
export type Word = z.infer<typeof wordSchema>;

/** One text block found on a frame: its text, its 4 corners in image pixels, and its area in px². */
export const detectionSchema = z.object({
  text: z.string(),
  vertices: quadSchema,
  area: z.number().nonnegative('area is in px² and cannot be negative'),
  confidence: confidenceSchema.optional(),
  /** Kind of block as the engine names it (for example TEXT, LINE, WORD). */
  blockType: z.string().min(1).max(32),
  /** Text before translation (captions mode with a target language). */
  originalText: z.string().optional(),
  words: z.array(wordSchema).optional(),
});
export type Detection = z.infer<typeof detectionSchema>;

/** A readable line of a frame (presentation): its text and, when known, its box. */
export const lineSchema = z.object({
  text: z.string(),
  vertices: quadSchema.optional(),
  confidence: confidenceSchema.optional(),
});
export type Line = z.infer<typeof lineSchema>;

/** Largest values over the whole upload, which the viewers scale their sliders with. */
export const maxValuesSchema = z.object({ maxTextLength: z.number().int().nonnegative() }).catchall(z.number());
export type MaxValues = z.infer<typeof maxValuesSchema>;

/** One frame's OCR outcome in reading form: time in seconds, index of its image in `urls`, full text. */
export const ocrFrameResultSchema = z.object({
  t: z.number().nonnegative(),
  fileIndex: z.number().int().nonnegative(),
  text: z.string(),
  detections: z.array(detectionSchema),
});
export type OcrFrameResult = z.infer<typeof ocrFrameResultSchema>;

/**
 * uploadData: every field of spec section 3, plus the progress fields we add. createdAt keeps the spec's
 * { _seconds } form; the other times are ISO strings, null until they happen.
 */
export const uploadDataSchema = z.object({
  uploadName: z.string(),
  createdAt: secondsTimestampSchema,
  ocrType: engineSchema,
  isVideo: z.boolean(),
  mediaContent: mediaContentSchema,
  /** Seconds between frames (null for photos). */
  targetFrameRate: z.number().positive().nullable(),
  /** Frames paid for: at most this many frames are processed. */
  maxFrames: z.number().int().nonnegative(),
  creditCost: z.number().int().nonnegative(),
  /** Where the media came from: an uploaded file, or a video link (advertised as coming soon). */
  source: z.enum(['upload', 'youtube']),
  status: uploadStatusSchema,
  mimeType: z.string(),
  /** Storage prefix of the upload's objects. */
  basePath: z.string(),
  ownerUid: userIdSchema,
  userID: userIdSchema,
  originalLanguage: languageCodeSchema,
  targetLanguage: languageCodeSchema,
  sortPreference: sortPreferenceSchema.nullable(),
  processedAt: isoDateTimeSchema.nullable(),
  uploadedAt: isoDateTimeSchema.nullable(),
  // ours, beyond the spec
  kind: uploadKindSchema.optional(),
  slideDetection: z.boolean().optional(),
  duration: z.number().nonnegative().nullable().optional(),
  framesDone: z.number().int().nonnegative().optional(),
  framesTotal: z.number().int().nonnegative().nullable().optional(),
  failureReason: z.string().nullable().optional(),
});
export type UploadData = z.infer<typeof uploadDataSchema>;

/** Results as GET /getUploadDetailsOld answers them: per-frame detections, maxValues, and an optional results file. */
export const uploadResultsOldSchema = z.object({
  /** One list of detections per frame, in frame order (same order as `urls`). */
  results: z.array(z.array(detectionSchema)),
  maxValues: maxValuesSchema,
  /** Absolute address of a file holding the results; for presentation uploads, a plain-text file. */
  resultsUrl: z.string().min(1).nullable().optional(),
  ocrResults: z.array(ocrFrameResultSchema).optional(),
  linesByFrame: z.array(z.array(lineSchema)).optional(),
  processingType: mediaContentSchema.optional(),
});
export type UploadResultsOld = z.infer<typeof uploadResultsOldSchema>;

/** Results as GET /getUploadDetails answers them: the same, with linesByFrame always present. */
export const uploadResultsSchema = uploadResultsOldSchema.extend({
  linesByFrame: z.array(z.array(lineSchema)),
});
export type UploadResults = z.infer<typeof uploadResultsSchema>;

/** Frame image URLs, one per frame; each file name starts with the frame's timestamp in ms. */
const frameUrlsSchema = z.array(z.string().min(1));

export const uploadDetailsResponseSchema = z.object({
  uploadData: uploadDataSchema,
  results: uploadResultsSchema,
  urls: frameUrlsSchema,
});
export type UploadDetailsResponse = z.infer<typeof uploadDetailsResponseSchema>;

export const uploadDetailsOldResponseSchema = z.object({
  uploadData: uploadDataSchema,
  results: uploadResultsOldSchema,
  urls: frameUrlsSchema,
});
export type UploadDetailsOldResponse = z.infer<typeof uploadDetailsOldResponseSchema>;

/** `?mode=numerical` on both details calls; the view asking (scroll is a view, not an upload mode). */
export const uploadDetailsQuerySchema = z.object({
  mode: z.enum(['numerical', 'captions', 'presentation', 'scroll'], { error: 'mode must be numerical, captions, presentation or scroll' }).optional(),
});
export type UploadDetailsQuery = z.infer<typeof uploadDetailsQuerySchema>;

/** The id that serves the demo's sample results without sign-in. */
export const DEMO_UPLOAD_ID = 'demo';
