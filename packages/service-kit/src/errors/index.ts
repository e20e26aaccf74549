import type { ErrorBody } from '@frametext/contracts';

/**
 * The one error type. `status` is the HTTP answer; `code` is stable and machine-readable
 * (for example `auth/invalid-credential` or `request/invalid-body`); `message` is safe to show a person.
 * Anything thrown that is not an AppError is treated as a bug: logged in full, answered as a 500
 * with a generic message.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;

  constructor(status: number, code: string, message: string, options: { cause?: unknown; details?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details;
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export const badRequest = (code: string, message: string, details?: unknown) => new AppError(400, code, message, { details });
export const unauthorized = (code: string, message: string) => new AppError(401, code, message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const notFound = (code: string, message: string) => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooManyRequests = (code: string, message: string) => new AppError(429, code, message);
export const unavailable = (code: string, message: string) => new AppError(503, code, message);

/** The error answer's shape lives with every other wire shape (contracts' errorBodySchema). */
export type { ErrorBody };

/** Turns anything thrown into a status and a body that never holds a stack trace. */
export function toErrorResponse(err: unknown, correlationId?: string): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: { error: { code: err.code, message: err.message, correlationId, ...(err.details === undefined ? {} : { details: err.details }) } },
    };
  }
  return {
    status: 500,
    body: { error: { code: 'internal', message: 'Something went wrong on our side. Please try again; if it keeps happening, contact support with the correlation id.', correlationId } },
  };
}

/** A thrown value's message, for a log line or a reason: an Error's message, anything else as a string. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
