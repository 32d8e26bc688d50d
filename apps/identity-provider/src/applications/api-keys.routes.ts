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
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listApiKeys(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreateApiKeyRequest }, requireDeveloper(deps, mintsCredentials(deps)), async ({ body }, _req, res) => {
        res.status(201).json(await makeApiKey(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/api-keys/:id/disable')
    .post(
      handle({ params: ZApiKeyIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        res.json(await disableKey(deps, res.locals.developer!, params.id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
