import { Router, type Request } from 'express';
import { createWebhookRequestSchema, webhookIdSchema, type CreateWebhookRequest } from '@frametext/contracts';
import { badRequest, parseBody, requireUserId } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { listWebhooks, registerWebhook, removeWebhook, sendTestEvent } from '../domain/webhooks.js';

function webhookIdParam(req: Request): string {
  return parseBody(webhookIdSchema, req.params.id, 'request/invalid-webhook-id');
}

/** A registration's body; its contract's messages are sentences, shown to the person without the field name. */
function webhookRequest(req: Request): CreateWebhookRequest {
  const result = createWebhookRequestSchema.safeParse(req.body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw badRequest('request/invalid-body', issues[0]!.message, { issues });
}

/** The signed-in person's webhooks (docs/webhooks.md): list with recent deliveries, register, delete, send a test event. */
export function webhookRoutes(ctx: ResultsContext): Router {
  const router = Router();

  router.get('/webhooks', async (req, res) => {
    res.json(await listWebhooks(ctx, await requireUserId(req)));
  });

  router.post('/webhooks', async (req, res) => {
    const userId = await requireUserId(req);
    const body = webhookRequest(req);
    res.status(201).json(await registerWebhook(ctx, userId, body.url));
  });

  router.delete('/webhooks/:id', async (req, res) => {
    const userId = await requireUserId(req);
    await removeWebhook(ctx, userId, webhookIdParam(req));
    res.status(204).end();
  });

  router.post('/webhooks/:id/test', async (req, res) => {
    const userId = await requireUserId(req);
    res.status(202).json(await sendTestEvent(ctx, userId, webhookIdParam(req), (seconds) => res.setHeader('retry-after', String(seconds))));
  });

  return router;
}
