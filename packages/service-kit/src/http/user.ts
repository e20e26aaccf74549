import type { Request } from 'express';
import { USER_HEADER } from '../logging/context.js';
import { AppError } from '../errors/index.js';

/**
 * The user the gateway verified (it strips any client-sent header and sets its own). A signed-in route reached
 * without it was not called through the gateway: 403, the spec's sign-out signal.
 */
export function requireUserId(req: Request): string {
  const id = req.header(USER_HEADER);
  if (!id) throw new AppError(403, 'auth/missing-user', 'Sign in to do this.');
  return id;
}
