import { Router } from 'express';
import { reserveCreditsRequestSchema, type GetUserDataResponse, type PublicConfig, type ReserveCreditsResponse } from '@frametext/contracts';
import { parseBody, requireUserId } from '@frametext/service-kit';
import type { BillingContext } from '../domain/context.js';
import { getProfile } from '../domain/profile.js';
import { publicConfig } from '../domain/public-config.js';
import { reserveCredits } from '../domain/reservations.js';

/** Routes the gateway forwards: the profile (signed in) and the public settings (purchases: payment-routes.ts). */
export function publicRoutes(ctx: BillingContext): Router {
  const router = Router();
  const config: PublicConfig = publicConfig(ctx.config);

  router.get('/config', (_req, res) => {
    res.set('cache-control', 'public, max-age=60').json(config);
  });

  router.get('/getUserData', async (req, res) => {
    const body: GetUserDataResponse = await getProfile(ctx.db, requireUserId(req));
    res.set('cache-control', 'no-store').json(body);
  });

  return router;
}

/** Routes other services call on the private network; the gateway has no route to them. */
export function internalRoutes(ctx: BillingContext): Router {
  const router = Router();

  router.post('/credits/reserve', async (req, res) => {
    const body: ReserveCreditsResponse = await reserveCredits(ctx, parseBody(reserveCreditsRequestSchema, req.body));
    res.json(body);
  });

  return router;
}
