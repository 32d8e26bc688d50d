import { Router, type Request } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZClientIdParams, ZCreateApplicationRequest, ZUpdateApplicationRequest } from '@svc/schemas';
import type { DeveloperDeps } from '../developer/deps.js';
import { mintsCredentials, requireDeveloper } from '../developer/developer-auth.js';
import { applicationOf, applicationView, listApplications, registerApplication, revokeApplication, rotateSecret, updateApplication } from './applications.js';

/** /v2/developer/applications: an organization's OAuth clients, managed by its developers. */
export function applicationsRouter(deps: DeveloperDeps): Router {
  const router = Router();
  const changesCredentials = (req: Request) => {
    const body = req.body as { redirect_uris?: unknown; jwks?: unknown };
    return body.redirect_uris !== undefined || body.jwks !== undefined ? mintsCredentials(deps) : { csrf: true };
  };
  router
    .route('/v2/developer/applications')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listApplications(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreateApplicationRequest }, requireDeveloper(deps, mintsCredentials(deps)), async ({ body }, _req, res) => {
        res.status(201).json(await registerApplication(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/applications/:client_id')
    .get(
      handle({ params: ZClientIdParams }, requireDeveloper(deps, { csrf: false }), async ({ params }, _req, res) => {
        res.json(applicationView(await applicationOf(deps, res.locals.developer!, params.client_id)));
      }),
    )
    .patch(
      // Redirect URIs and keys decide where codes go and who authenticates: a credential change.
      handle({ params: ZClientIdParams, body: ZUpdateApplicationRequest }, requireDeveloper(deps, changesCredentials), async ({ params, body }, _req, res) => {
        res.json(await updateApplication(deps, res.locals.developer!, params.client_id, body));
      }),
    )
    .delete(
      handle({ params: ZClientIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        res.json(await revokeApplication(deps, res.locals.developer!, params.client_id));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/applications/:client_id/rotate-secret')
    .post(
      handle({ params: ZClientIdParams }, requireDeveloper(deps, mintsCredentials(deps)), async ({ params }, _req, res) => {
        res.json(await rotateSecret(deps, res.locals.developer!, params.client_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
