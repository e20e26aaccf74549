import type { RequestBudgetRequest, RequestBudgetResponse } from '@frametext/contracts';
import { perMinute } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { takeFromRequestBudget } from '../data/request-budgets.js';

/**
 * The gateways' shared count of a person's requests, whatever signed them (any API token, any browser session):
 * leases up to `take` from their one budget (docs/security.md, Request budget).
 */
export async function leaseRequestBudget(ctx: IdentityContext, input: RequestBudgetRequest): Promise<RequestBudgetResponse> {
  const taken = await takeFromRequestBudget(ctx.db, input.userId, perMinute(input.requestsPerMinute), input.take, input.giveBack);
  return { granted: taken.granted, retryAfterMs: taken.retryAfterMs };
}
