import { z } from 'zod';
import { checkoutRequestSchema, checkoutResponseSchema, checkoutSessionIdSchema, checkoutSessionSchema, getUserDataResponseSchema, publicConfigSchema, stripeEventSchema } from './billing.js';
import { createApiTokenRequestSchema, createApiTokenResponseSchema, listApiTokensResponseSchema } from './api-tokens.js';
import { uploadIdSchema } from './common.js';
import { systemHealthSchema } from './gateway.js';
import {
  authSessionSchema,
  deleteAccountProofRequestSchema,
  deleteAccountProofResponseSchema,
  deleteAccountRequestSchema,
  emailConfirmationStatusSchema,
  emailConfirmRequestSchema,
  jwksResponseSchema,
  loginRequestSchema,
  logoutRequestSchema,
  passwordChangeRequestSchema,
  passwordResetConfirmRequestSchema,
  passwordResetRequestSchema,
  providersResponseSchema,
  reauthenticationResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  signupRequestSchema,
} from './identity.js';
import { EXPORT_CONTENT_TYPES, exportQuerySchema } from './exports.js';
import { numericalExportSchema } from './numerical-export.js';
import { keptWorkResponseSchema, keptWorkViewSchema, saveKeptWorkRequestSchema, saveKeptWorkResponseSchema } from './kept-work.js';
import { uploadDetailsOldResponseSchema, uploadDetailsQuerySchema, uploadDetailsResponseSchema } from './results.js';
import {
  deleteUploadsRequestSchema,
  deleteUploadsResponseSchema,
  getUploadUrlRequestBodySchema,
  getUploadUrlResponseSchema,
  getUploadsResponseSchema,
  logLocalUploadRequestSchema,
  logLocalUploadResponseSchema,
  uploadCompleteRequestSchema,
  uploadCompleteResponseSchema,
  uploadStatusResponseSchema,
} from './uploads.js';
import { annotateOperationSchema, annotateVideoAnswerSchema, annotateVideoResponseSchema, annotateVideoRequestSchema, googleErrorBodySchema } from './video-intelligence.js';
import { createWebhookRequestSchema, createWebhookResponseSchema, listWebhooksResponseSchema, webhookDeliverySchema, webhookIdSchema } from './webhooks.js';

/*
 * What each public endpoint takes and answers, for the OpenAPI description (openapi.ts). Keyed by the method and the
 * path as the gateway's route table writes it (`:param` for a path segment). Which endpoints exist and which need a
 * token is the route table's to say; a test fails when an entry here has no route there, or a route none here.
 *
 * Adding an endpoint: one entry below, naming the zod schemas its body and answers already have in this package.
 */

/** A body or answer: its component name in the description (`#/components/schemas/<name>`) and its zod schema. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

export interface ApiResponse {
  description: string;
  /** JSON body; absent for answers without one (204, redirects). */
  json?: NamedSchema;
  /** A non-JSON body (the simulated checkout's HTML page). */
  contentType?: string;
  /** Non-JSON bodies of several types (a file download: CSV, text, subtitles...), beside `json` when it has one. */
  contentTypes?: string[];
  /** Headers worth naming, such as Location on a redirect. */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  /** One line: what the call does. */
  summary: string;
  /** More, when the summary is not enough: when to call it, what happens next. */
  description?: string;
  /** The group the reference page lists it under. */
  tag: ApiTag;
  /** Each `:param` of the path: what it is and its schema. */
  params?: Record<string, { description: string; schema: z.ZodType }>;
  /** Query parameters, from a zod object's fields. */
  query?: z.ZodObject;
  /** The JSON request body. */
  body?: NamedSchema & { example?: unknown; contentType?: string; required?: boolean };
  /** Success answers by status. */
  responses: Record<number, ApiResponse>;
  /** Error answers worth knowing by status (all carry the error body). 403 for a refused token is added for signed-in routes. */
  errors?: Record<number, string>;
  /** The error body, when not FrameText's own (the Google-compatible endpoints answer Google's). */
  errorBody?: NamedSchema;
}

export const API_TAGS = {
  auth: 'Sign-in and account',
  uploads: 'Uploads',
  results: 'Results',
  webhooks: 'Webhooks',
  credits: 'Credits and profile',
  videoIntelligence: 'Google Video Intelligence compatible',
  system: 'System',
} as const;
export type ApiTag = keyof typeof API_TAGS;

const named = (name: string, schema: z.ZodType): NamedSchema => ({ name, schema });

const uploadIdParam = { id: { description: 'The upload id (getUploadURL answered it as uploadID).', schema: uploadIdSchema } };
const INVALID_BODY = 'The body is not valid: the message and details say which field to fix.';
const NOT_FOUND = 'No such upload among yours.';

const ok = (description: string, name: string, schema: z.ZodType): Record<number, ApiResponse> => ({ 200: { description, json: named(name, schema) } });
const noContent = (description: string): Record<number, ApiResponse> => ({ 204: { description } });

/** What both addresses of a text detection's operation take and answer. */
const annotateOperationRead = {
  params: { id: { description: 'The upload id: the last segment of the operation name.', schema: uploadIdSchema } },
  responses: ok('The operation.', 'AnnotateVideoOperation', annotateOperationSchema),
  errors: { 404: 'No such operation among yours (NOT_FOUND), or it was deleted.' },
  errorBody: named('GoogleError', googleErrorBodySchema),
};

export const API_OPERATIONS: Record<string, ApiOperation> = {
  // ---------------------------------------------------------------- identity (/api/auth/*)
  'GET /api/auth/jwks.json': {
    tag: 'auth',
    summary: 'The public keys that access tokens are signed with (RS256), to verify a token yourself.',
    responses: ok('The key set.', 'Jwks', jwksResponseSchema),
  },
  'GET /api/auth/providers': {
    tag: 'auth',
    summary: 'Which ways of signing in are offered (password always; Google when configured).',
    responses: ok('The sign-in providers.', 'Providers', providersResponseSchema),
  },
  'POST /api/auth/signup': {
    tag: 'auth',
    summary: 'Creates an account with an e-mail and a password and signs it in.',
    description: 'The answer holds an access token (idToken) for `Authorization: Bearer`, and a refresh token for POST /api/auth/refresh.',
    body: { ...named('SignupRequest', signupRequestSchema), example: { email: 'ada@example.com', password: 'a long passphrase' } },
    responses: { 201: { description: 'Signed up and signed in.', json: named('AuthSession', authSessionSchema) } },
    errors: { 400: 'The e-mail or password is missing or not acceptable (auth/invalid-email, auth/weak-password...).', 409: 'An account already uses this e-mail.', 429: 'Too many attempts from this address; wait and retry.' },
  },
  'POST /api/auth/login': {
    tag: 'auth',
    summary: 'Signs in with an e-mail and a password.',
    body: { ...named('LoginRequest', loginRequestSchema), example: { email: 'ada@example.com', password: 'a long passphrase' } },
    responses: ok('Signed in.', 'AuthSession', authSessionSchema),
    errors: { 400: 'The e-mail or password is missing.', 401: 'The e-mail or password is wrong (auth/invalid-credential).', 429: 'Too many attempts; wait and retry.' },
  },
  'POST /api/auth/refresh': {
    tag: 'auth',
    summary: 'Trades a refresh token for a new access token (and a new refresh token: the old one is used up).',
    body: named('RefreshRequest', refreshRequestSchema),
    responses: ok('A new token pair.', 'TokenPair', refreshResponseSchema),
    errors: { 400: 'No refresh token sent.', 401: 'The refresh token is unknown, used up or its session ended: sign in again.' },
  },
  'POST /api/auth/logout': {
    tag: 'auth',
    summary: 'Ends the session of a refresh token; its access tokens stop working too.',
    body: named('LogoutRequest', logoutRequestSchema),
    responses: noContent('Signed out.'),
  },
  'POST /api/auth/delete-account': {
    tag: 'auth',
    summary: 'Deletes the account of a session, with its uploads and results.',
    description: 'An account with a password sends it too; a Google-only account needs a recent sign-in (see POST /api/auth/delete-account/proof).',
    body: named('DeleteAccountRequest', deleteAccountRequestSchema),
    responses: noContent('The account is deleted.'),
    errors: { 401: 'The refresh token or the password is wrong.', 403: 'The session is too old for a Google-only account: sign in again (auth/requires-recent-login).' },
  },
  'POST /api/auth/delete-account/proof': {
    tag: 'auth',
    summary: 'Says what deleting the account of a session needs now: its password, a confirmation, or a fresh sign-in.',
    body: named('DeleteAccountProofRequest', deleteAccountProofRequestSchema),
    responses: ok('What deleting needs.', 'DeleteAccountProof', deleteAccountProofResponseSchema),
  },
  'POST /api/auth/password-reset': {
    tag: 'auth',
    summary: 'Sends a password-reset link to an e-mail address (the same answer whether or not an account uses it).',
    body: named('PasswordResetRequest', passwordResetRequestSchema),
    responses: noContent('If an account uses the address, a link is on its way.'),
  },
  'POST /api/auth/password-reset/confirm': {
    tag: 'auth',
    summary: 'Sets a new password with the token from the reset link; every session and every personal API token of the account ends.',
    body: named('PasswordResetConfirmRequest', passwordResetConfirmRequestSchema),
    responses: noContent('The password is changed.'),
    errors: { 400: 'The token is invalid or expired, or the password is too weak.' },
  },
  'POST /api/auth/password-change': {
    tag: 'auth',
    summary: 'Changes the password of a session\'s account; every session and every personal API token of the account ends.',
    description: 'Needs a browser session\'s access token and the current password. The answer is a new session for the caller: the one that sent the request ends with the others.',
    body: { ...named('PasswordChangeRequest', passwordChangeRequestSchema), example: { currentPassword: 'a long passphrase', newPassword: 'another long passphrase' } },
    responses: ok('Changed; a new session for this caller.', 'AuthSession', authSessionSchema),
    errors: {
      400: 'A password is missing, or the new one is too weak (auth/weak-password).',
      401: 'Not a session\'s access token (auth/session-required), or the current password is wrong (auth/invalid-credential).',
      409: 'The account signs in with Google and has no password (auth/no-password): a reset link sets one.',
      429: 'Too many wrong passwords; wait and retry.',
    },
  },
  'GET /api/auth/reauthentication': {
    tag: 'auth',
    summary: 'Says what creating an API token or changing the password needs from this session now: the password, nothing more (a recent Google sign-in), or a fresh sign-in.',
    responses: ok('What the session must add.', 'Reauthentication', reauthenticationResponseSchema),
    errors: { 401: 'Not a session\'s access token (auth/session-required).' },
  },
  'GET /api/auth/email-confirmation': {
    tag: 'auth',
    summary: 'Says whether the signed-in account\'s e-mail address is confirmed (its free credits come with that).',
    responses: ok('The address and whether it is confirmed.', 'EmailConfirmationStatus', emailConfirmationStatusSchema),
    errors: { 401: 'Not a session\'s access token (auth/session-required).' },
  },
  'POST /api/auth/email-confirmation': {
    tag: 'auth',
    summary: 'Mails the signed-in account a new confirmation link (the one sent at sign-up stays usable too).',
    responses: noContent('A link is on its way.'),
    errors: {
      401: 'Not a session\'s access token (auth/session-required).',
      409: 'The address is confirmed already (auth/email-already-confirmed).',
      429: 'Several links were sent in the last hour; wait and retry (auth/too-many-requests).',
    },
  },
  'POST /api/auth/email-confirmation/confirm': {
    tag: 'auth',
    summary: 'Confirms an e-mail address with the token of the mailed link (single use; no sign-in needed). The free credits follow within seconds.',
    body: named('EmailConfirmRequest', emailConfirmRequestSchema),
    responses: ok('Confirmed.', 'EmailConfirmationStatus', emailConfirmationStatusSchema),
    errors: { 400: 'The token is missing, unknown, already used or expired (auth/invalid-confirmation-token).', 429: 'Too many attempts from this address; wait and retry.' },
  },
  'GET /api/auth/google/start': {
    tag: 'auth',
    summary: 'Starts signing in with Google (for a browser: it redirects to Google).',
    responses: { 302: { description: 'To Google\'s consent page.', headers: { Location: 'Google\'s sign-in address.' } } },
    errors: { 404: 'Google sign-in is not offered here (auth/provider-disabled).' },
  },
  'GET /api/auth/google/callback': {
    tag: 'auth',
    summary: 'Where Google sends the browser back; it redirects to /login with the tokens (or the error) in the fragment.',
    responses: { 302: { description: 'To the app\'s /login page.', headers: { Location: '/login#idToken=...&refreshToken=...&expiresIn=...&firstLogin=... or /login#error=...&message=...' } } },
  },

  'GET /api/auth/api-tokens': {
    tag: 'auth',
    summary: 'Lists your personal API tokens (never their text), with their scope and last use.',
    description: 'Managing tokens needs a browser session\'s access token: a personal token cannot list, create or revoke tokens.',
    responses: ok('Your tokens and how many you may hold.', 'ApiTokenList', listApiTokensResponseSchema),
    errors: { 401: 'Not a session\'s access token (auth/session-required).' },
  },
  'POST /api/auth/api-tokens': {
    tag: 'auth',
    summary: 'Creates a personal API token; its text is in this answer only.',
    description:
      'Send it as `Authorization: Bearer <token>` wherever a session token is accepted. Scope `read` reads uploads and results; `upload` also starts and deletes uploads. ' +
      'An account with a password sends it in `password`; an account that signs in with Google only needs a sign-in from the last few minutes instead (GET /api/auth/reauthentication says which).',
    body: { ...named('CreateApiTokenRequest', createApiTokenRequestSchema), example: { name: 'Lab notebook', scope: 'upload', password: 'a long passphrase' } },
    responses: { 201: { description: 'The token (shown once) and its entry.', json: named('CreateApiTokenResponse', createApiTokenResponseSchema) } },
    errors: {
      400: INVALID_BODY,
      401: 'Not a session\'s access token (auth/session-required); no password (auth/password-required) or a wrong one (auth/invalid-credential); or, for a Google-only account, a sign-in too old (auth/requires-recent-login).',
      409: 'You hold the most tokens allowed: revoke one first.',
      429: 'Too many wrong passwords; wait and retry.',
    },
  },
  'DELETE /api/auth/api-tokens/:id': {
    tag: 'auth',
    summary: 'Revokes a personal API token; it stops working within seconds.',
    params: { id: { description: 'The token\'s id (from the list).', schema: z.uuid() } },
    responses: noContent('Revoked.'),
    errors: { 401: 'Not a session\'s access token (auth/session-required).', 404: 'No such token on your account.' },
  },

  // ---------------------------------------------------------------- uploads
  'POST /api/getUploadURL': {
    tag: 'uploads',
    summary: 'Starts an upload: checks the request, holds its credits and answers where to PUT the file(s).',
    description:
      'Send one of the shapes below. `kind` may be left out: isVideo false means photos, isVideo true with `timestamps` means frames cut in the browser, isVideo true without them a video. ' +
      'Photos may be sent as their capture `timestamps` (ms since the epoch, one per photo) without a `files` list. ' +
      'Then PUT each file to its URL, in order, with its Content-Type, and call POST /api/uploadComplete. ' +
      'When the credits do not cover every frame, only the first `maxFrames` are processed.',
    body: {
      ...named('GetUploadUrlRequest', getUploadUrlRequestBodySchema),
      example: { uploadName: 'Whiteboard photos', isVideo: false, mimeType: 'image/jpeg', timestamps: [1732550400000, 1732550460000], ocrType: 'server', mediaContent: 'presentation' },
    },
    responses: ok('The upload id and one PUT URL per file, in the order sent.', 'GetUploadUrlResponse', getUploadUrlResponseSchema),
    errors: { 400: INVALID_BODY, 402: 'Not enough credits for even one frame (billing/insufficient-credits).', 503: 'The chosen engine is not available now.' },
  },
  'POST /api/uploadComplete': {
    tag: 'uploads',
    summary: 'Says every file is uploaded: processing starts.',
    body: { ...named('UploadCompleteRequest', uploadCompleteRequestSchema), example: { uploadID: '0b7c6a8e-2f0e-4a53-9c1e-7f3d1b2a9c4d' } },
    responses: ok('Processing has started.', 'UploadCompleteResponse', uploadCompleteResponseSchema),
    errors: { 400: INVALID_BODY, 404: NOT_FOUND, 409: 'A file is missing from storage, or the upload is past this step.', 410: 'The upload was deleted before it was completed.' },
  },
  'POST /api/logLocalUpload': {
    tag: 'uploads',
    summary: 'Logs (and charges) an OCR run done in the browser with the Local engine.',
    body: named('LogLocalUploadRequest', logLocalUploadRequestSchema),
    responses: ok('Charged once per upload id.', 'LogLocalUploadResponse', logLocalUploadResponseSchema),
    errors: { 400: INVALID_BODY, 402: 'Not enough credits (billing/insufficient-credits).' },
  },
  'GET /api/checkUploadStatus/:id': {
    tag: 'uploads',
    summary: 'Where an upload stands: its status and frames read so far (poll every few seconds).',
    params: uploadIdParam,
    responses: ok('The upload\'s progress, from the moment uploadComplete has answered.', 'UploadStatusResponse', uploadStatusResponseSchema),
    errors: { 404: NOT_FOUND, 410: 'The upload was deleted.', 503: 'The status cannot be read right now; ask again in a moment.' },
  },
  'GET /api/getUploads': {
    tag: 'uploads',
    summary: 'Lists your uploads, newest first.',
    responses: ok('Your uploads.', 'GetUploadsResponse', getUploadsResponseSchema),
  },
  'POST /api/deleteUploads': {
    tag: 'uploads',
    summary: 'Deletes uploads of yours with their frames and results, never-completed ones too; one being processed stops, charged for the frames read so far.',
    body: { ...named('DeleteUploadsRequest', deleteUploadsRequestSchema), example: { uploads: ['0b7c6a8e-2f0e-4a53-9c1e-7f3d1b2a9c4d'], deleteUploads: true } },
    responses: ok('The ids that were deleted (others\' and unknown ids are left out).', 'DeleteUploadsResponse', deleteUploadsResponseSchema),
    errors: { 400: INVALID_BODY, 503: 'A never-completed upload cannot be deleted right now; nothing was deleted, ask again in a moment.' },
  },

  // ---------------------------------------------------------------- results
  'GET /api/getUploadDetails/demo': {
    tag: 'results',
    summary: 'The demo upload\'s results, without signing in.',
    query: uploadDetailsQuerySchema,
    responses: ok('The demo\'s upload data, results and frame URLs.', 'UploadDetailsResponse', uploadDetailsResponseSchema),
  },
  'GET /api/getUploadDetailsOld/demo': {
    tag: 'results',
    summary: 'The demo upload\'s results in the older form (per-frame detections), without signing in.',
    query: uploadDetailsQuerySchema,
    responses: ok('The demo\'s upload data, results and frame URLs.', 'UploadDetailsOldResponse', uploadDetailsOldResponseSchema),
  },
  'GET /api/getUploadDetails/:id': {
    tag: 'results',
    summary: 'An upload\'s results: its data, the text of each frame, and each frame\'s image URL.',
    params: uploadIdParam,
    query: uploadDetailsQuerySchema,
    responses: ok('The upload data, results and frame URLs.', 'UploadDetailsResponse', uploadDetailsResponseSchema),
    errors: { 400: 'The mode is not one of the views.', 404: NOT_FOUND },
  },
  'GET /api/getUploadDetailsOld/:id': {
    tag: 'results',
    summary: 'An upload\'s results in the older form: per-frame detections with boxes.',
    params: uploadIdParam,
    query: uploadDetailsQuerySchema,
    responses: ok('The upload data, results and frame URLs.', 'UploadDetailsOldResponse', uploadDetailsOldResponseSchema),
    errors: { 400: 'The mode is not one of the views.', 404: NOT_FOUND },
  },

  'GET /api/uploads/:id/work/:view': {
    tag: 'results',
    summary: 'Your saved work in one results view of an upload (series, boxes, filters, template); the demo\'s too.',
    params: { ...uploadIdParam, view: { description: 'The results view.', schema: keptWorkViewSchema } },
    responses: ok('The kept work: revision 0 and document null when nothing is kept.', 'KeptWorkResponse', keptWorkResponseSchema),
    errors: { 400: 'The view is not one of presentation, numerical, region or scroll.', 404: NOT_FOUND, 410: 'The upload was deleted.' },
  },
  'GET /api/uploads/:id/export': {
    tag: 'results',
    summary: 'A results view\'s file (CSV, TXT, SRT, WebVTT or JSON), exactly as the app\'s export button saves it.',
    description:
      'Built from your saved work in that view (GET /api/uploads/:id/work/:view); without saved work, from what the view shows when first opened. ' +
      'Numerical with no series selected exports the series Find the numbers finds. Formats by view: presentation txt; numerical csv, json; ' +
      'region csv, txt, srt, vtt (subtitles of the first box); scroll csv, txt. format=gvi, for any upload and view: its text in Google Video Intelligence\'s JSON. ' +
      'The file name is in Content-Disposition. docs/api.md has examples.',
    params: uploadIdParam,
    query: exportQuerySchema,
    responses: {
      200: {
        description:
          'The file, with `Content-Disposition: attachment; filename="..."` (the name the app saves it under). JSON is the Numerical export (docs/exports.md), or with format=gvi Google Video Intelligence\'s AnnotateVideoResponse (docs/video-intelligence.md).',
        json: named('ExportJson', z.union([numericalExportSchema, annotateVideoResponseSchema])),
        contentTypes: Object.values(EXPORT_CONTENT_TYPES).filter((type) => type !== EXPORT_CONTENT_TYPES.json),
        headers: { 'Content-Disposition': 'attachment; filename="<the file name the app uses>"' },
      },
    },
    errors: {
      400: 'An unknown format or view (request/invalid-query), or a format the view does not offer (export/format-not-offered lists the view\'s formats).',
      404: NOT_FOUND,
      409: 'The upload is still processing (export/not-ready, with its status) or failed (results/failed), or the view has nothing to export yet (export/empty says what to do in the app).',
      410: 'The upload was deleted.',
    },
  },
  'PUT /api/uploads/:id/work/:view': {
    tag: 'results',
    summary: 'Saves your work in one results view, on top of the revision you last read or saved.',
    params: { ...uploadIdParam, view: { description: 'The results view.', schema: keptWorkViewSchema } },
    body: named('SaveKeptWorkRequest', saveKeptWorkRequestSchema),
    responses: ok('Saved as the next revision.', 'SaveKeptWorkResponse', saveKeptWorkResponseSchema),
    errors: {
      400: 'The document is not the view\'s shape (work/invalid-document names the field).',
      404: NOT_FOUND,
      409: 'Another tab saved since your revision (work/stale): read it again.',
      410: 'The upload was deleted.',
      413: 'The document is over 256 KB (work/too-large).',
    },
  },

  // ---------------------------------------------------------------- webhooks
  'GET /api/webhooks': {
    tag: 'webhooks',
    summary: 'Lists your webhooks (never their secrets) and their recent deliveries with the answers they got.',
    responses: ok('Your webhooks and recent deliveries, newest first.', 'WebhookList', listWebhooksResponseSchema),
  },
  'POST /api/webhooks': {
    tag: 'webhooks',
    summary: 'Registers an HTTPS URL to receive signed upload.processed and upload.failed events; the signing secret is in this answer only.',
    description: 'Each POST carries `FrameText-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`; docs/webhooks.md shows how to check it. Addresses in private, loopback or the product\'s own networks are refused.',
    body: { ...named('CreateWebhookRequest', createWebhookRequestSchema), example: { url: 'https://lab.example.org/frametext-events' } },
    responses: { 201: { description: 'The webhook and its secret (shown once).', json: named('CreateWebhookResponse', createWebhookResponseSchema) } },
    errors: { 400: 'The URL is not an HTTPS address that resolves to a public host.', 409: 'You have the most webhooks allowed: delete one first.' },
  },
  'DELETE /api/webhooks/:id': {
    tag: 'webhooks',
    summary: 'Deletes a webhook; events still on their way to it are dropped.',
    params: { id: { description: 'The webhook id.', schema: webhookIdSchema } },
    responses: noContent('Deleted.'),
    errors: { 404: 'No such webhook on your account.' },
  },
  'POST /api/webhooks/:id/test': {
    tag: 'webhooks',
    summary: 'Sends a signed webhook.test event to a webhook now.',
    params: { id: { description: 'The webhook id.', schema: webhookIdSchema } },
    responses: { 202: { description: 'Queued: the delivery, pending until the receiver answers.', json: named('WebhookDelivery', webhookDeliverySchema) } },
    errors: { 404: 'No such webhook on your account.', 429: 'You sent the most test events allowed in a minute (webhooks/test-rate-limited); wait as long as Retry-After says.' },
  },

  // ---------------------------------------------------------------- credits and profile
  'POST /api/create-checkout-session': {
    tag: 'credits',
    summary: 'Starts buying a credit pack: answers the payment page to open.',
    body: { ...named('CheckoutRequest', checkoutRequestSchema), example: { credits: 100 } },
    responses: ok('The payment page.', 'CheckoutResponse', checkoutResponseSchema),
    errors: { 400: INVALID_BODY, 503: 'Payments are not set up here.' },
  },
  'GET /api/checkout-sessions/:id': {
    tag: 'credits',
    summary: 'Where a purchase of yours stands (credited once paid).',
    params: { id: { description: 'The checkout session id (cs_...).', schema: checkoutSessionIdSchema } },
    responses: ok('The purchase.', 'CheckoutSession', checkoutSessionSchema),
    errors: { 400: 'Not a checkout session id.', 404: 'No such purchase of yours.' },
  },
  'GET /api/getUserData': {
    tag: 'credits',
    summary: 'Your profile: e-mail, credit balance and tier.',
    responses: ok('The profile.', 'Profile', getUserDataResponseSchema),
  },
  'POST /api/stripe/webhook': {
    tag: 'credits',
    summary: 'Stripe\'s payment events (Stripe calls this, signed; not for scripts).',
    body: { ...named('StripeEvent', stripeEventSchema), required: true },
    responses: ok('The event is handled.', 'WebhookReceived', z.object({ received: z.literal(true) })),
    errors: { 400: 'The Stripe-Signature header is missing, does not match the body, or is too old.' },
  },
  'GET /api/simulated-checkout/:id': {
    tag: 'credits',
    summary: 'The simulated payment page (when no payment provider is set up), opened by the person buying.',
    params: { id: { description: 'The simulated checkout session id (cs_sim_...).', schema: checkoutSessionIdSchema } },
    responses: { 200: { description: 'The payment page.', contentType: 'text/html' } },
    errors: { 404: 'No such session.' },
  },
  'POST /api/simulated-checkout/:id/pay': {
    tag: 'credits',
    summary: 'Pays on the simulated payment page, then redirects to the success page.',
    params: { id: { description: 'The simulated checkout session id (cs_sim_...).', schema: checkoutSessionIdSchema } },
    responses: { 303: { description: 'Paid: to the success page.', headers: { Location: 'The checkout success page.' } } },
    errors: { 404: 'No such session.', 409: 'The session is expired or failed.' },
  },
  'GET /api/config': {
    tag: 'credits',
    summary: 'Public settings: the free credits, the engines and their rates, limits and credit packs.',
    responses: ok('The settings.', 'PublicConfig', publicConfigSchema),
  },

  // ---------------------------------------------------------------- the gateway's own
  'GET /api/health': {
    tag: 'system',
    summary: 'Whether every service behind the gateway is ready.',
    responses: {
      200: { description: 'Every service is ready.', json: named('SystemHealth', systemHealthSchema) },
      503: { description: 'A service is not ready: its entry says why.', json: named('SystemHealth', systemHealthSchema) },
    },
  },
  'GET /api/openapi.json': {
    tag: 'system',
    summary: 'This description of the API (OpenAPI 3.1).',
    responses: { 200: { description: 'The OpenAPI document.', json: named('OpenApiDocument', z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) })) } },
  },
  // ---------------------------------------------------------------- Google Video Intelligence compatible (/v1)
  'POST /v1/videos:annotate': {
    tag: 'videoIntelligence',
    summary: 'Google Video Intelligence\'s text detection: starts reading a video, answers a long-running operation.',
    description:
      'AnnotateVideoRequest in Google\'s JSON mapping, with features ["TEXT_DETECTION"]: the video as inputContent (base64, MP4 or MOV) or one of your uploads as ' +
      'inputUri frametext://uploads/{id}. An inline video is an ordinary upload (its credits, the upload scope) read one frame a second. Poll the operation with GET /v1/{name}. ' +
      'Errors answer Google\'s body. docs/video-intelligence.md has the migration guide.',
    body: { ...named('AnnotateVideoRequest', annotateVideoRequestSchema), example: { inputContent: 'AAAAIGZ0eXBpc29t...', features: ['TEXT_DETECTION'], videoContext: { textDetectionConfig: { languageHints: ['en'] } } } },
    responses: ok('The operation: its name is projects/-/locations/-/operations/{upload id}.', 'AnnotateVideoStarted', annotateVideoAnswerSchema),
    errors: {
      400: 'A feature other than TEXT_DETECTION, invalid base64, not a video, an unsupported field (outputUri, gs:// inputUri, segments) or language (INVALID_ARGUMENT).',
      402: 'Not enough credits for the video\'s frames (RESOURCE_EXHAUSTED).',
      404: 'inputUri names no upload of yours (NOT_FOUND).',
      413: 'The body is larger than 64 MB.',
    },
    errorBody: named('GoogleError', googleErrorBodySchema),
  },
  'GET /v1/projects/-/locations/-/operations/:id': {
    tag: 'videoIntelligence',
    summary: 'The operation of a text detection: progress while the video is read, then AnnotateVideoResponse (or the error).',
    description: 'google.longrunning.Operation in Google\'s JSON mapping. done is false with AnnotateVideoProgress as metadata until the upload is processed; then response holds the text annotations, or error the reason it failed.',
    ...annotateOperationRead,
  },
  'GET /v1/operations/projects/-/locations/-/operations/:id': {
    tag: 'videoIntelligence',
    summary: 'The same operation, at the other address Google\'s clients may use (/v1/operations/{name}).',
    ...annotateOperationRead,
  },
};
