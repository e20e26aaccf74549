import { Router } from 'express';
import { chargeLocalUseRequestSchema, reserveCreditsRequestSchema, type ChargeLocalUseResponse, type GetUserDataResponse, type PublicConfig, type ReserveCreditsResponse } from '@frametext/contracts';
import { forbidden, parseBody, requireUserId, requireWorkload } from '@frametext/service-kit';
import type { BillingContext } from '../domain/context.js';
import { getProfile } from '../domain/profile.js';
import { publicConfig } from '../domain/public-config.js';
import { chargeLocalUse } from '../domain/local-use.js';
import { reserveCredits } from '../domain/reservations.js';

/** Routes the gateway forwards: the profile (signed in) and the public settings (purchases: payment-routes.ts). */
export function publicRoutes(ctx: BillingContext): Router {
  const router = Router();
  router.get('/config', async (_req, res) => {
    // Built per request: engine availability follows the running workers. Cached briefly.
    const config: PublicConfig = publicConfig(ctx.config, await ctx.engines.all());
    res.set('cache-control', 'public, max-age=10').json(config);
  });

  router.get('/getUserData', async (req, res) => {
    const body: GetUserDataResponse = await getProfile(ctx.db, await requireUserId(req));
    res.set('cache-control', 'no-store').json(body);
  });

  return router;
}

/**
 * Routes other services call; the gateway has no route to them. Each call proves both who makes it (the upload
 * service's workload token) and for whom (that user's own access token), so nobody can hold another's credits.
 */
export function internalRoutes(ctx: BillingContext): Router {
  const router = Router();

  router.post('/credits/reserve', async (req, res) => {
    requireWorkload(req, 'billing', ['upload']);
    const userId = await requireUserId(req);
    const request = parseBody(reserveCreditsRequestSchema, req.body);
    if (request.userId !== userId) throw forbidden('billing/not-your-credits', 'Credits can only be held for the signed-in user.');
    const body: ReserveCreditsResponse = await reserveCredits(ctx, request);
    res.json(body);
  });

  // A Local engine run, charged once per user and upload id (same two proofs as a reservation).
  router.post('/credits/local-use', async (req, res) => {
    requireWorkload(req, 'billing', ['upload']);
    const userId = await requireUserId(req);
    const request = parseBody(chargeLocalUseRequestSchema, req.body);
    if (request.userId !== userId) throw forbidden('billing/not-your-credits', 'Credits can only be charged to the signed-in user.');
    const body: ChargeLocalUseResponse = await chargeLocalUse(ctx, request);
    res.json(body);
  });

  return router;
}
