import type { Request } from 'express';
import type { AuthErrorCode } from '@frametext/contracts';
import { AppError } from '@frametext/service-kit';
import { authError } from '../domain/errors.js';

type Fields = Record<string, unknown>;

/** The body as an object: a JSON array or a non-JSON body is a 4xx naming what to send instead. */
export function bodyOf(req: Request): Fields {
  if (req.body === undefined) {
    if (req.headers['content-type'] && !req.is('application/json')) {
      throw new AppError(415, 'request/unsupported-media-type', 'Send the body as JSON with Content-Type: application/json.');
    }
    return {};
  }
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new AppError(400, 'request/invalid-body', 'The request body must be a JSON object.');
  }
  return req.body as Fields;
}

/** A field that is absent, null or empty answers its own auth code (as the SPA's sign-in messages expect). */
export function requireFields(body: Fields, required: [field: string, code: AuthErrorCode, message?: string][]): void {
  for (const [field, code, message] of required) {
    const v = body[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw authError(code, message);
  }
}
