import { z } from 'zod';
import { CREDIT_PACK_SIZES, ENGINES, SUBSCRIPTION_TIER_NAMES, LOCAL_MAX_FRAMES, MAX_FRAMES, engineSchema, isoDateTimeSchema, serverEngineSchema, uploadIdSchema, userIdSchema } from './common.js';

/*
 * Bodies of credits, profile and public settings: POST /create-checkout-session, GET /checkout-sessions/:id,
 * the getUserData profile, GET /config, and billing's internal reservation call that the upload service makes.
 */

// ---------------------------------------------------------------- POST /create-checkout-session

export const checkoutRequestSchema = z.object({
  credits: z.literal(CREDIT_PACK_SIZES, { error: `credits must be one of the packs: ${CREDIT_PACK_SIZES.join(', ')}` }),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** The payment page the SPA opens (new tab, or the current window when pop-ups are blocked). */
export const checkoutResponseSchema = z.object({ url: z.string().url('url must be the payment page address') });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

// ---------------------------------------------------------------- GET /checkout-sessions/:id

/** A Checkout session id as Stripe makes them (`cs_test_...`, `cs_live_...`) or the simulated provider (`cs_sim_...`). */
export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'not a checkout session id');

/**
 * Where a purchase stands: `open` until paid, `processing` while a delayed payment method (a bank debit) is
 * still settling, `credited` once the pack is on the balance, `expired` when the session closed unpaid,
 * `failed` when the delayed payment did not go through.
 */
export const CHECKOUT_STATUSES = ['open', 'processing', 'credited', 'expired', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The signed-in user's own checkout session (the success page waits for `credited`). */
export const checkoutSessionSchema = z.object({
  sessionId: checkoutSessionIdSchema,
  credits: z.literal(CREDIT_PACK_SIZES),
  status: z.enum(CHECKOUT_STATUSES),
  createdAt: isoDateTimeSchema,
  creditedAt: isoDateTimeSchema.nullable(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

// ---------------------------------------------------------------- POST /stripe/webhook (Stripe calls it)

/** What billing reads of a Stripe event (checked only once its Stripe-Signature matches the raw body); other fields pass. */
export const stripeEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});

// ---------------------------------------------------------------- getUserData (GET /getUserData)

/** The signed-in user's profile: the SPA stores it as is and reads credits, subscription_tier, firstLogin and email. */
export const profileSchema = z.object({
  uid: userIdSchema,
  /** '' while billing has not yet heard of the user (user.created.v1 not handled yet). */
  email: z.union([z.string().email(), z.literal('')]),
  credits: z.number().nonnegative(),
  /** Follows what the user has bought (SUBSCRIPTION_TIERS in rules.ts): free, then starter, then pro. */
  subscription_tier: z.enum(SUBSCRIPTION_TIER_NAMES).default('free'),
  /** True until onboarding has been seen: after login the SPA goes to /welcome instead of /dashboard. */
  firstLogin: z.boolean(),
  createdAt: isoDateTimeSchema.optional(),
});
export type Profile = z.infer<typeof profileSchema>;
export const getUserDataResponseSchema = profileSchema;
export type GetUserDataResponse = Profile;

// ---------------------------------------------------------------- GET /config (public)

/** One engine as the SPA offers it: whether it can be chosen now and, when not, why (a sentence for a person). */
export const engineAvailabilitySchema = z.object({
  engine: engineSchema,
  available: z.boolean(),
  reason: z.string().nullable(),
  creditsPerFrame: z.number().positive(),
  framesPerCredit: z.number().positive(),
});
export type EngineAvailability = z.infer<typeof engineAvailabilitySchema>;

/**
 * How this server sells credit packs: `stripe` (Stripe Checkout), `simulated` (billing's own page, no money moves;
 * only where an operator turned it on) or `off` (neither: the SPA says purchases are unavailable and offers no packs).
 */
export const PURCHASE_MODES = ['stripe', 'simulated', 'off'] as const;
export type PurchaseMode = (typeof PURCHASE_MODES)[number];

/** Public settings the SPA reads before sign-in: the free-credit grant, engines, rates, limits and packs. */
export const publicConfigSchema = z.object({
  freeCredits: z.number().int().nonnegative(),
  purchases: z.enum(PURCHASE_MODES),
  engines: z.array(engineAvailabilitySchema).length(ENGINES.length),
  maxFrames: z.number().int().positive(),
  localMaxFrames: z.number().int().positive(),
  frameIntervals: z.array(z.number().positive()),
  defaultFrameInterval: z.number().positive(),
  localScanIntervals: z.array(z.number().positive()),
  defaultLocalScanInterval: z.number().positive(),
  creditPacks: z.array(z.object({ credits: z.number().int().positive(), priceCents: z.number().int().positive() })),
  retentionDays: z.number().int().positive(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

// ---------------------------------------------------------------- billing's internal API (upload -> billing)

/**
 * POST /internal/credits/reserve on billing: the upload service asks to hold credits for an upload. Billing
 * answers how many of the frames the user can pay for (maxFrames) and holds their cost until
 * upload.processed.v1 (capture) or upload.failed.v1 (release). An empty balance answers 402
 * billing/insufficient-credits. Idempotent by uploadId: a second call answers the same reservation.
 */
export const reserveCreditsRequestSchema = z.object({
  uploadId: uploadIdSchema,
  userId: userIdSchema,
  engine: serverEngineSchema,
  frames: z.number().int().positive('frames must be at least 1').max(MAX_FRAMES, `frames must be at most ${MAX_FRAMES}`),
});
export type ReserveCreditsRequest = z.infer<typeof reserveCreditsRequestSchema>;

export const reserveCreditsResponseSchema = z.object({
  uploadId: uploadIdSchema,
  framesRequested: z.number().int().positive(),
  /** Frames paid for: only the first maxFrames frames will be processed. */
  maxFrames: z.number().int().nonnegative(),
  /** Credits held for maxFrames frames. */
  creditCost: z.number().int().nonnegative(),
  /** Balance before the hold, for the "You have X credits but this operation requires Y." message. */
  credits: z.number().nonnegative(),
  /** Credits the full request would cost. */
  creditsRequired: z.number().int().nonnegative(),
});
export type ReserveCreditsResponse = z.infer<typeof reserveCreditsResponseSchema>;

/**
 * POST /internal/credits/local-use on billing: the upload service charges a run of the Local engine (OCR done in
 * the browser, logged with POST /logLocalUpload) at the local rate, on behalf of the signed-in user whose token it
 * forwards. Charged once per (user, uploadId): a repeat answers the first charge and moves nothing. A balance below
 * the cost answers 402 billing/insufficient-credits with details { credits, creditsRequired } and moves nothing.
 */
export const chargeLocalUseRequestSchema = z.object({
  uploadId: uploadIdSchema.refine((id) => id.startsWith('local-'), 'a local uploadId starts with local-'),
  userId: userIdSchema,
  frames: z.number().int().positive('frames must be at least 1').max(LOCAL_MAX_FRAMES, `frames must be at most ${LOCAL_MAX_FRAMES}`),
});
export type ChargeLocalUseRequest = z.infer<typeof chargeLocalUseRequestSchema>;

export const chargeLocalUseResponseSchema = z.object({
  uploadId: uploadIdSchema,
  /** Credits this run cost: ceil(frames x the local rate), as charged the first time. */
  creditCost: z.number().int().positive(),
  /** The balance now, after the charge. */
  credits: z.number().nonnegative(),
  /** False when this call found the run already charged (a repeat). */
  charged: z.boolean(),
});
export type ChargeLocalUseResponse = z.infer<typeof chargeLocalUseResponseSchema>;
