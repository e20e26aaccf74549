import type { z } from 'zod';
import { badRequest } from '@frametext/service-kit';
import { VIDEO_LINK_FORMS_MESSAGE } from '@frametext/contracts';

/**
 * The spec's sentences (product spec section 8), each with a stable code for the SPA. They are shown to the
 * user as they are, without the field name in front.
 */
const SPEC_MESSAGES: [prefix: string, code: string][] = [
  ['Please upload one .mov or .mp4 at a time', 'upload/one-video-at-a-time'],
  ['Please ensure multiple uploads are the same file type.', 'upload/mixed-file-types'],
  ['Ensure multiple uploads are all photos and either .png or .jpeg.', 'upload/photos-only'],
  ['Please name your upload before uploading.', 'upload/name-required'],
  ['Ensure original and target languages are not equal.', 'upload/same-languages'],
  ["Whoa that's a lot of frames", 'upload/too-many-frames'],
  // Not the spec's sentence (it ignores such a link), but one the link input and scripts show as it is.
  [VIDEO_LINK_FORMS_MESSAGE, 'upload/unsupported-link'],
];

/** Parses a body with its contract; the first problem becomes a 400 with the spec's wording where it has one. */
export function parseUploadBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('request/invalid-body', 'The request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0]!;
  const spec = SPEC_MESSAGES.find(([prefix]) => first.message.startsWith(prefix));
  if (spec) throw badRequest(spec[1], first.message, { issues });
  throw badRequest('request/invalid-body', first.path ? `${first.path}: ${first.message}` : first.message, { issues });
}
