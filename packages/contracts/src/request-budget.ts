import { z } from 'zod';

/*
 * The request budget of a person: one for all their personal API tokens and browser sessions together, shared by
 * every gateway replica. identity keeps the count; each gateway leases a few requests at a time.
 */

/**
 * identity's `POST /internal/request-budget` (the gateway's workload token): takes up to `take` requests from the
 * person's budget, after putting back `giveBack` the gateway leased and did not spend. The budget is
 * `requestsPerMinute` at once, refilled continuously over a minute (the gateways' setting).
 */
export const requestBudgetRequestSchema = z.strictObject({
  /** The verified `sub` of the person's access token (identity's uid). */
  userId: z.string().min(1).max(255),
  take: z.number().int().min(1).max(100_000),
  giveBack: z.number().int().min(0).max(100_000),
  requestsPerMinute: z.number().int().min(1).max(100_000),
});
export type RequestBudgetRequest = z.infer<typeof requestBudgetRequestSchema>;

/** How many requests were leased (0 up to `take`), and how long until the budget holds one again (0 when it does). */
export const requestBudgetResponseSchema = z.object({
  granted: z.number().int().min(0),
  retryAfterMs: z.number().int().min(0),
});
export type RequestBudgetResponse = z.infer<typeof requestBudgetResponseSchema>;

/** The gateway's answer to a person past their budget: 429 with Retry-After and `details.retryAfterSeconds`. */
export const RATE_LIMITED_CODE = 'gateway/rate-limited';
