import { Router } from 'express';
import { z } from 'zod';
import {
  createApiTokenRequestSchema,
  exchangeApiTokenRequestSchema,
  type CreateApiTokenResponse,
  type ExchangeApiTokenResponse,
  type ListApiTokensResponse,
} from '@frametext/contracts';
import { AppError, parseBody, requireWorkload } from '@frametext/service-kit';
import type { IdentityContext } from '../domain/context.js';
import { createApiToken, exchangeApiToken, listApiTokens, revokeApiTokenOf } from '../domain/api-tokens.js';
import { countIpRequest } from '../domain/rate-limits.js';
import { sessionOwner, signedInSession } from '../domain/session-access.js';

const tokenIdSchema = z.string().uuid();

/** `/api/auth/api-tokens`: a signed-in person lists, creates and revokes their personal API tokens. */
export function apiTokenRoutes(ctx: IdentityContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });

  router.get('/', async (req, res) => {
    const user = await sessionOwner(ctx, req.header('authorization'));
    const body: ListApiTokensResponse = await listApiTokens(ctx, user);
    res.json(body);
  });

  router.post('/', async (req, res) => {
    await countIpRequest(ctx, req.ip ?? 'unknown');
    const session = await signedInSession(ctx, req.header('authorization'));
    if (req.body === undefined && req.headers['content-type'] && !req.is('application/json')) {
      throw new AppError(415, 'request/unsupported-media-type', 'Send the body as JSON with Content-Type: application/json.');
    }
    const input = parseBody(createApiTokenRequestSchema, req.body ?? {});
    const body: CreateApiTokenResponse = await createApiToken(ctx, session, input, req.ip ?? 'unknown');
    res.status(201).json(body);
  });

  router.delete('/:id', async (req, res) => {
    const user = await sessionOwner(ctx, req.header('authorization'));
    const id = tokenIdSchema.safeParse(req.params.id);
    if (!id.success) throw new AppError(404, 'auth/api-token-not-found', 'There is no such API token on your account; it may have been revoked already.');
    await revokeApiTokenOf(ctx, user, id.data);
    res.status(204).end();
  });

  return router;
}

/** `/internal/api-tokens/exchange`, for the gateway alone (workload token): trades a personal token for an access token. */
export function apiTokenExchangeRoutes(ctx: IdentityContext): Router {
  const router = Router();
  router.post('/exchange', async (req, res) => {
    requireWorkload(req, 'identity', ['gateway']);
    const { token } = parseBody(exchangeApiTokenRequestSchema, req.body);
    const body: ExchangeApiTokenResponse = await exchangeApiToken(ctx, token);
    res.set('cache-control', 'no-store').json(body);
  });
  return router;
}
