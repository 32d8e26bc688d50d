import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationListQuery } from '@svc/schemas';
import { Router } from 'express';
import { requireChangeListReader } from './change-list-reader.js';
import type { DeveloperDeps } from './deps.js';
import { authorizationChanges } from './organizations.js';

/** /v2/authorizations: the organization's change list, for its clients and its developers. */
export function authorizationsRouter(deps: DeveloperDeps): Router {
  const router = Router();
  router
    .route('/v2/authorizations')
    .get(
      handle({ query: ZAuthorizationListQuery }, requireChangeListReader(deps), async ({ query }, _req, res) => {
        res.json(await authorizationChanges(deps.db, deps.config.IDP_SECRET, res.locals.changeListReader!.organizationId, query));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
