import { Router, type Request } from 'express';
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
  const changesUrl = (req: Request) => ((req.body as { url?: unknown }).url === undefined ? { csrf: true } : mintsCredentials(deps));
  router
    .route('/v2/developer/webhooks')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listWebhooks(deps, res.locals.developer!));
    })
    // The answer holds a signing secret: made like other credentials (a session in production).
    .post(
      handle({ body: ZCreateWebhookRequest }, requireDeveloper(deps, mintsCredentials(deps)), async ({ body }, _req, res) => {
        res.status(201).json(await createWebhook(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id')
    .get(
      handle({ params: ZWebhookParams }, requireDeveloper(deps, { csrf: false }), async ({ params }, _req, res) => {
        res.json(endpointView(await webhookOf(deps, res.locals.developer!, params.webhook_id), deps.clock.now()));
      }),
    )
    .patch(
      // Where signed events go is a credential: changed like one (a session in production).
      handle({ params: ZWebhookParams, body: ZUpdateWebhookRequest }, requireDeveloper(deps, changesUrl), async ({ params, body }, _req, res) => {
        res.json(await updateWebhook(deps, res.locals.developer!, params.webhook_id, body));
      }),
    )
    .delete(
      handle({ params: ZWebhookParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await deleteWebhook(deps, res.locals.developer!, params.webhook_id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/rotate-secret')
    .post(
      handle({ params: ZWebhookParams }, requireDeveloper(deps, mintsCredentials(deps)), async ({ params }, _req, res) => {
        res.json(await rotateWebhookSecret(deps, res.locals.developer!, params.webhook_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/test')
    .post(
      handle({ params: ZWebhookParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        res.status(202).json(await sendTestEvent(deps, res.locals.developer!, params.webhook_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/deliveries')
    .get(
      handle({ params: ZWebhookParams, query: ZWebhookDeliveryQuery }, requireDeveloper(deps, { csrf: false }), async ({ params, query }, _req, res) => {
        res.json(await listDeliveries(deps, res.locals.developer!, params.webhook_id, query));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/webhooks/:webhook_id/deliveries/:delivery_id/retry')
    .post(
      handle({ params: ZWebhookDeliveryParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        res.json(await retryDelivery(deps, res.locals.developer!, params.webhook_id, params.delivery_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
