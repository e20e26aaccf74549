import type { ApiTokenScope } from '@frametext/contracts';
import { AppError } from '../errors/index.js';

/**
 * What a route asks of a personal API token: the scope it needs, or `refused` for routes a script has no business
 * on (payments). Session tokens (no scope) may do anything their owner may.
 */
export type ApiTokenRequirement = ApiTokenScope | 'refused';

/** The personal token an access token was exchanged for (claims `sid` and `scope`). */
export interface ApiTokenGrant {
  id: string;
  scope: ApiTokenScope;
}

/** Safe methods read; every other method changes something and needs the `upload` scope. */
export function requirementOfMethod(method: string): ApiTokenScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'upload';
}

/** Throws the 403 a personal token gets on a route that needs more than it holds; session tokens pass. */
export function assertApiTokenAllowed(grant: ApiTokenGrant | undefined, need: ApiTokenRequirement): void {
  if (!grant) return;
  if (need === 'refused') {
    throw new AppError(403, 'auth/api-token-not-allowed', 'API tokens cannot be used for payments or account settings. Sign in to FrameText in a browser to do this.');
  }
  if (need === 'upload' && grant.scope !== 'upload') {
    throw new AppError(403, 'auth/api-token-scope', 'This token can only read; create one with the upload scope on your Account page.');
  }
}
