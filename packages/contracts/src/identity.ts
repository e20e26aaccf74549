import { z } from 'zod';

/**
 * Bodies of the identity endpoints (`/api/auth/*`). Request schemas check types only: a missing field is
 * answered with its own auth code (auth/missing-email, auth/missing-password...) before these run, and the
 * e-mail format and password strength are domain rules with their own codes.
 */

const emailField = z.string().max(320);
const passwordField = z.string().max(1024);
const tokenField = z.string().min(1).max(512);

export const signupRequestSchema = z.object({ email: emailField, password: passwordField });
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const loginRequestSchema = z.object({ email: emailField, password: passwordField });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const refreshRequestSchema = z.object({ refreshToken: tokenField });
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const logoutRequestSchema = z.object({ refreshToken: tokenField });
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;

/**
 * POST /api/auth/delete-account (204): deletes the signed-in person's account. The refresh token proves the session
 * (as log-out does); an account with a password must also send it, while a Google-only account needs a session
 * started within the last RECENT_SIGN_IN_MINUTES instead (POST /api/auth/delete-account/proof says which).
 */
export const deleteAccountRequestSchema = z.object({ refreshToken: tokenField, password: passwordField.optional() });
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

export const deleteAccountProofRequestSchema = z.object({ refreshToken: tokenField });
export type DeleteAccountProofRequest = z.infer<typeof deleteAccountProofRequestSchema>;

/**
 * What deleting the account needs now: `password` (the account has one), `recent-sign-in` (a Google-only account
 * whose session started within the last `recentSignInMinutes`: confirming is enough) or `sign-in-again` (a
 * Google-only account whose session is older: the person signs in again first).
 */
export const DELETE_ACCOUNT_PROOFS = ['password', 'recent-sign-in', 'sign-in-again'] as const;
export const deleteAccountProofResponseSchema = z.object({
  proof: z.enum(DELETE_ACCOUNT_PROOFS),
  recentSignInMinutes: z.number().positive(),
});
export type DeleteAccountProofResponse = z.infer<typeof deleteAccountProofResponseSchema>;

/**
 * What a step that must be the owner's (creating an API token, changing the password) needs from this session now:
 * the same three answers as for deleting the account (`password` also says the account has one).
 * GET /api/auth/reauthentication, with the session's access token.
 */
export const reauthenticationResponseSchema = deleteAccountProofResponseSchema;
export type ReauthenticationResponse = DeleteAccountProofResponse;

/**
 * POST /api/auth/password-change (a session's access token): the current password and a new one. Every session and
 * every personal API token of the account ends; the answer is a new session for the caller (an AuthSession).
 */
export const passwordChangeRequestSchema = z.object({ currentPassword: passwordField, newPassword: passwordField });
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

export const passwordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetConfirmRequestSchema = z.object({ token: tokenField, password: passwordField });
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequestSchema>;

/**
 * Confirming the e-mail address (the free credits come with it). GET /api/auth/email-confirmation (a session's access
 * token) answers where the signed-in account stands; POST there mails a new link; POST .../confirm takes the link's
 * token (single use; no sign-in needed, the link is the proof).
 */
export const emailConfirmationStatusSchema = z.object({ email: z.string(), confirmed: z.boolean() });
export type EmailConfirmationStatus = z.infer<typeof emailConfirmationStatusSchema>;

export const emailConfirmRequestSchema = z.object({ token: tokenField });
export type EmailConfirmRequest = z.infer<typeof emailConfirmRequestSchema>;

export const authUserSchema = z.object({
  uid: z.string().uuid(),
  email: z.string(),
  /** True in the sign-up answer and in the answer of the first log-in after it; false afterwards. */
  firstLogin: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** Lifetime of the idToken in seconds (a number, as Firebase's `expiresIn` but not a string). */
export const tokenPairSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int().positive(),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** Answer of sign-up (201) and log-in (200). */
export const authSessionSchema = tokenPairSchema.extend({ user: authUserSchema });
export type AuthSession = z.infer<typeof authSessionSchema>;

/** Answer of refresh (200). */
export const refreshResponseSchema = tokenPairSchema;
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const providersResponseSchema = z.object({ password: z.literal(true), google: z.boolean() });
export type ProvidersResponse = z.infer<typeof providersResponseSchema>;

export const jwkSchema = z.object({
  kty: z.literal('RSA'),
  kid: z.string(),
  use: z.literal('sig'),
  alg: z.literal('RS256'),
  n: z.string(),
  e: z.string(),
});
export const jwksResponseSchema = z.object({ keys: z.array(jwkSchema) });
export type JwksResponse = z.infer<typeof jwksResponseSchema>;

/** Claims of an access token (RS256, header `kid`). */
export const accessTokenClaimsSchema = z.object({
  sub: z.string().uuid(),
  email: z.string(),
  iss: z.string(),
  aud: z.string(),
  iat: z.number().int(),
  exp: z.number().int(),
  /** The sign-in session (refresh chain) the token was issued for; its log-out ends the token too. */
  sid: z.string().uuid().optional(),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/**
 * identity's `GET /internal/revocations` (workload token only): the sessions ended (log-out, password reset, account
 * deletion...) whose access tokens may not have expired yet. Every service that verifies access tokens refuses
 * those sessions'.
 */
export const revocationsResponseSchema = z.object({ sessions: z.array(z.string().min(1).max(128)) });
export type RevocationsResponse = z.infer<typeof revocationsResponseSchema>;

/** Fields of the `/login#...` fragment the Google callback redirects to (all strings, as in a URL). */
export const googleRedirectFragmentSchema = z.union([
  z.object({ idToken: z.string(), refreshToken: z.string(), expiresIn: z.string(), firstLogin: z.enum(['true', 'false']) }),
  z.object({ error: z.string(), message: z.string() }),
]);

export const authErrorCodes = [
  'auth/email-already-in-use',
  'auth/invalid-email',
  'auth/weak-password',
  'auth/user-disabled',
  'auth/invalid-credential',
  'auth/missing-email',
  'auth/missing-password',
  'auth/too-many-requests',
  'auth/missing-refresh-token',
  'auth/invalid-refresh-token',
  'auth/missing-reset-token',
  'auth/invalid-reset-token',
  'auth/provider-disabled',
  'auth/invalid-oauth-state',
  'auth/oauth-failed',
  'auth/email-not-verified',
  'auth/account-exists-with-different-credential',
  'auth/requires-recent-login',
  'auth/no-password',
  'auth/missing-confirmation-token',
  'auth/invalid-confirmation-token',
  'auth/email-already-confirmed',
] as const;
export type AuthErrorCode = (typeof authErrorCodes)[number];
