import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZCreateWebhookRequest, ZUpdateWebhookRequest, ZWebhookDeliveryParams, ZWebhookDeliveryQuery, ZWebhookParams } from '@svc/schemas';
import { mintsCredentials, requireDeveloper } from '../developer/developer-auth.js';
import type { WebhookDeps } from './deps.js';
import {
  createWebhook,
  deleteWebhook,
  endpointView,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  webhookOf,
} from './endpoints.js';

/** /v2/developer/webhooks: an organization's webhook endpoints and their deliveries (docs/webhooks.md). */
export function webhooksRouter(deps: WebhookDeps): Router {
  const router = Router();
  const developer = (req: Parameters<typeof requireDeveloper>[1], csrf: boolean) => requireDeveloper(deps, req, { csrf });
  router
    .route('/v2/developer/webhooks')
    .get(async (req, res) => {
      res.json(await listWebhooks(deps, await developer(req, false)));
    })
    // The answer holds a signing secret: made like other credentials (a session in production).
    .post(
      handle({ body: ZCreateWebhookRequest }, async ({ body }, req, res) => {
        res.status(201).json(await createWebhook(deps, await requireDeveloper(deps, req, mintsCredentials(deps)), body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id')
    .get(
      handle({ params: ZWebhookParams }, async ({ params }, req, res) => {
        res.json(endpointView(await webhookOf(deps, await developer(req, false), params.webhook_id), deps.clock.now()));
      }),
    )
    .patch(
      handle({ params: ZWebhookParams, body: ZUpdateWebhookRequest }, async ({ params, body }, req, res) => {
        // Where signed events go is a credential: changed like one (a session in production).
        const who = body.url === undefined ? await developer(req, true) : await requireDeveloper(deps, req, mintsCredentials(deps));
        res.json(await updateWebhook(deps, who, params.webhook_id, body));
      }),
    )
    .delete(
      handle({ params: ZWebhookParams }, async ({ params }, req, res) => {
        await deleteWebhook(deps, await developer(req, true), params.webhook_id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/rotate-secret')
    .post(
      handle({ params: ZWebhookParams }, async ({ params }, req, res) => {
        res.json(await rotateWebhookSecret(deps, await requireDeveloper(deps, req, mintsCredentials(deps)), params.webhook_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/test')
    .post(
      handle({ params: ZWebhookParams }, async ({ params }, req, res) => {
        res.status(202).json(await sendTestEvent(deps, await developer(req, true), params.webhook_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/deliveries')
    .get(
      handle({ params: ZWebhookParams, query: ZWebhookDeliveryQuery }, async ({ params, query }, req, res) => {
        res.json(await listDeliveries(deps, await developer(req, false), params.webhook_id, query));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/deliveries/:delivery_id/retry')
    .post(
      handle({ params: ZWebhookDeliveryParams }, async ({ params }, req, res) => {
        res.json(await retryDelivery(deps, await developer(req, true), params.webhook_id, params.delivery_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
