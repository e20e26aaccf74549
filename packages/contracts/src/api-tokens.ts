import { z } from 'zod';
import { API_TOKEN_NAME_MAX, API_TOKEN_SCOPES } from './api-token-rules.js';

export * from './api-token-rules.js';

export const apiTokenScopeSchema = z.enum(API_TOKEN_SCOPES, { error: 'scope must be read or upload' });

/**
 * identity's `POST /api/auth/api-tokens` (a session's access token): a new token with a name and a scope. An account
 * with a password sends it too; a Google-only account needs a recent sign-in instead (GET /api/auth/reauthentication).
 */
export const createApiTokenRequestSchema = z.strictObject({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, 'Give the token a name, such as the script or machine that will use it.')
    .max(API_TOKEN_NAME_MAX, `name is at most ${API_TOKEN_NAME_MAX} characters`),
  scope: apiTokenScopeSchema,
  password: z.string({ error: 'password must be a string' }).max(1024).optional(),
});
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequestSchema>;

/** A token as its owner sees it in the list: never its secret. Times are ISO 8601. */
export const apiTokenSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scope: apiTokenScopeSchema,
  createdAt: z.string(),
  /** Null while the token has never been used; updated at most once a minute. */
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to creating a token: the only time its text is shown. */
export const createApiTokenResponseSchema = z.object({ token: z.string(), apiToken: apiTokenSchema });
export type CreateApiTokenResponse = z.infer<typeof createApiTokenResponseSchema>;

/** identity's `GET /api/auth/api-tokens`: the live tokens, newest first. */
export const listApiTokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema), limit: z.number().int() });
export type ListApiTokensResponse = z.infer<typeof listApiTokensResponseSchema>;

/** identity's `POST /internal/api-tokens/exchange` (the gateway's workload token): a personal token for an access token. */
export const exchangeApiTokenRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });
export type ExchangeApiTokenRequest = z.infer<typeof exchangeApiTokenRequestSchema>;

/**
 * The access token a personal token stands for: an RS256 JWT like a session's, whose `sid` is the personal token's
 * id (so revoking it reaches every service through the feed of ended sessions) and whose `scope` claim is the token's.
 */
export const exchangeApiTokenResponseSchema = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().positive(),
  tokenId: z.string().uuid(),
  userId: z.string().uuid(),
  scope: apiTokenScopeSchema,
});
export type ExchangeApiTokenResponse = z.infer<typeof exchangeApiTokenResponseSchema>;

/** Error codes of personal tokens, wherever they are refused. */
export type ApiTokenErrorCode =
  | 'auth/api-token-invalid'
  | 'auth/api-token-scope'
  | 'auth/api-token-not-allowed'
  | 'auth/too-many-api-tokens'
  | 'auth/api-token-not-found'
  | 'auth/session-required'
  | 'auth/password-required';
