import { badRequest } from '@frametext/service-kit';
import { annotateVideoRequestSchema, LANGUAGES, TEXT_DETECTION, TEXT_DETECTION_NUMBER, UPLOAD_URI_PREFIX, uploadIdSchema, VIDEO_FEATURES } from '@frametext/contracts';
import { parseUploadBody } from './validation.js';

/*
 * POST /v1/videos:annotate's body, as Google's clients send it (docs/video-intelligence.md), checked into what
 * FrameText does with it: a video inline or an upload of the caller's, and the language on screen. Anything asked
 * that FrameText cannot do is a 400 naming it, never silently dropped.
 */

export type AnnotateSource = { kind: 'inline'; video: Buffer } | { kind: 'upload'; uploadId: string } | { kind: 'link'; url: string };

export interface AnnotateOrder {
  source: AnnotateSource;
  /** The language on screen (a code of the upload request's list), or null to read with the default model. */
  language: string | null;
}

const snakeToCamel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Proto3 JSON parsers take a field's proto name (input_content) as well as its JSON name (inputContent). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), camelKeys(v)]));
}

function checkFeatures(features: readonly (string | number)[]): void {
  if (features.length === 0) throw badRequest('annotate/feature-required', `features is required: ask for ["${TEXT_DETECTION}"].`);
  for (const f of features) {
    if (f === TEXT_DETECTION || f === TEXT_DETECTION_NUMBER) continue;
    const name = typeof f === 'number' ? (VIDEO_FEATURES[f] ?? String(f)) : f;
    throw badRequest('annotate/feature-not-supported', `FrameText detects text only: ${name} is not supported; ask for features ["${TEXT_DETECTION}"].`);
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0) throw badRequest('annotate/empty-video', 'inputContent is empty: send the video\'s bytes in base64.');
  if (!BASE64.test(compact) || compact.length % 4 === 1) throw badRequest('annotate/invalid-base64', 'inputContent is not valid base64: send the video\'s bytes in base64 (standard or URL-safe alphabet).');
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

/** inputUri: one of the caller's uploads, or a video's address (https; http only where local hosts are allowed), fetched by the server. */
function sourceOfUri(uri: string): AnnotateSource {
  const id = uri.startsWith(UPLOAD_URI_PREFIX) ? uri.slice(UPLOAD_URI_PREFIX.length) : undefined;
  if (id !== undefined && uploadIdSchema.safeParse(id).success) return { kind: 'upload', uploadId: id };
  if (/^https?:\/\//i.test(uri.trim())) return { kind: 'link', url: uri.trim() };
  const gs = uri.startsWith('gs://') ? ' Cloud Storage addresses are not read: give the video\'s https address, send it as inputContent, or upload it to FrameText first.' : '';
  throw badRequest('annotate/unsupported-input-uri', `inputUri must be a video's https:// address, or name one of your FrameText uploads as ${UPLOAD_URI_PREFIX}<upload id>.${gs}`);
}

/** The first hint FrameText reads, by its exact code or its primary language ("en-US" is English); null without hints. */
function languageOf(hints: readonly string[]): string | null {
  if (hints.length === 0) return null;
  for (const hint of hints) {
    const exact = LANGUAGES.find((l) => l.code.toLowerCase() === hint.toLowerCase());
    const primary = LANGUAGES.find((l) => l.code.toLowerCase() === hint.split('-')[0]!.toLowerCase());
    if (exact ?? primary) return (exact ?? primary)!.code;
  }
  throw badRequest('annotate/language-not-supported', `FrameText does not read ${hints.join(', ')}: give languageHints as BCP-47 codes of a language it reads (en, de, fr, zh-CN...), or none.`);
}

export function parseAnnotateRequest(body: unknown): AnnotateOrder {
  const req = parseUploadBody(annotateVideoRequestSchema, camelKeys(body));
  checkFeatures(req.features ?? []);
  if (req.outputUri) throw badRequest('annotate/output-uri-not-supported', 'outputUri is not supported: the result is in the operation, and as GET /api/uploads/{id}/export?format=gvi.');
  if (req.videoContext?.segments?.length) throw badRequest('annotate/segments-not-supported', 'videoContext.segments is not supported: FrameText reads the whole video.');
  if (req.inputUri && req.inputContent) throw badRequest('annotate/one-input', 'Send either inputUri or inputContent, not both.');
  const language = languageOf(req.videoContext?.textDetectionConfig?.languageHints ?? []);
  if (req.inputUri) return { source: sourceOfUri(req.inputUri), language };
  if (req.inputContent === undefined) throw badRequest('annotate/input-required', 'Send the video as inputContent (base64), or give its https address or one of your uploads as inputUri.');
  return { source: { kind: 'inline', video: decodeBase64(req.inputContent) }, language };
}
