import { Router } from 'express';
import { requestBudgetRequestSchema, type RequestBudgetResponse } from '@frametext/contracts';
import { parseBody, requireWorkload } from '@frametext/service-kit';
import type { IdentityContext } from '../domain/context.js';
import { leaseRequestBudget } from '../domain/request-budgets.js';

/** `/internal/request-budget`, for the gateway alone (workload token): leases requests from a person's shared budget. */
export function requestBudgetRoutes(ctx: IdentityContext): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    requireWorkload(req, 'identity', ['gateway']);
    const body: RequestBudgetResponse = await leaseRequestBudget(ctx, parseBody(requestBudgetRequestSchema, req.body));
    res.set('cache-control', 'no-store').json(body);
  });
  return router;
}
