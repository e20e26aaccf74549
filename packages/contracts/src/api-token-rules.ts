/**
 * Personal API tokens: the numbers and names both the services and the SPA use (zod-free, so the SPA can import
 * them without the schemas).
 */

/** What a token may do: `read` reads uploads and results; `upload` also uploads, completes and deletes uploads. */
export const API_TOKEN_SCOPES = ['read', 'upload'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Live (unrevoked) tokens one person may hold. */
export const API_TOKENS_PER_USER = 20;
export const API_TOKEN_NAME_MAX = 100;

/**
 * The token's text: `ftpat_` (recognisable by secret scanners), the token's id as 32 hex digits, `_`, and 32 random
 * bytes in base64url (43 characters). Only the SHA-256 of the secret part is stored.
 */
export const API_TOKEN_PATTERN = /^ftpat_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
export const API_TOKEN_PREFIX = 'ftpat_';

/** Whether an Authorization bearer value is a personal API token (rather than a session's access token). */
export function looksLikeApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}
