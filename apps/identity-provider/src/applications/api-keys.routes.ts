import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZApiKeyIdParams, ZCreateApiKeyRequest } from '@svc/schemas';
import type { DeveloperDeps } from '../developer/deps.js';
import { mintsCredentials, requireDeveloper } from '../developer/developer-auth.js';
import { disableKey, listApiKeys, makeApiKey } from './api-keys.js';

/** /v2/developer/api-keys: the organization's keys for wallet verify and the credential issuer. */
export function apiKeysRouter(deps: DeveloperDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/api-keys')
    .get(async (req, res) => {
      res.json(await listApiKeys(deps, await requireDeveloper(deps, req, { csrf: false })));
    })
    .post(
      handle({ body: ZCreateApiKeyRequest }, async ({ body }, req, res) => {
        res.status(201).json(await makeApiKey(deps, await requireDeveloper(deps, req, mintsCredentials(deps)), body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/api-keys/:id/disable')
    .post(
      handle({ params: ZApiKeyIdParams }, async ({ params }, req, res) => {
        res.json(await disableKey(deps, await requireDeveloper(deps, req, { csrf: true }), params.id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
