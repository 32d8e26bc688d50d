import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZClientIdParams, ZCreateApplicationRequest, ZUpdateApplicationRequest } from '@svc/schemas';
import type { DeveloperDeps } from '../developer/deps.js';
import { mintsCredentials, requireDeveloper } from '../developer/developer-auth.js';
import { applicationOf, applicationView, listApplications, registerApplication, revokeApplication, rotateSecret, updateApplication } from './applications.js';

/** /v2/developer/applications: an organization's OAuth clients, managed by its developers. */
export function applicationsRouter(deps: DeveloperDeps): Router {
  const router = Router();
  const developer = (req: Parameters<typeof requireDeveloper>[1], csrf: boolean) => requireDeveloper(deps, req, { csrf });
  router
    .route('/v2/developer/applications')
    .get(async (req, res) => {
      res.json(await listApplications(deps, await developer(req, false)));
    })
    .post(
      handle({ body: ZCreateApplicationRequest }, async ({ body }, req, res) => {
        res.status(201).json(await registerApplication(deps, await requireDeveloper(deps, req, mintsCredentials(deps)), body));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/applications/:client_id')
    .get(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        res.json(applicationView(await applicationOf(deps, await developer(req, false), params.client_id)));
      }),
    )
    .patch(
      handle({ params: ZClientIdParams, body: ZUpdateApplicationRequest }, async ({ params, body }, req, res) => {
        // Redirect URIs and keys decide where codes go and who authenticates: a credential change.
        const changesCredentials = body.redirect_uris !== undefined || body.jwks !== undefined;
        res.json(
          await updateApplication(
            deps,
            await requireDeveloper(deps, req, changesCredentials ? mintsCredentials(deps) : { csrf: true }),
            params.client_id,
            body,
          ),
        );
      }),
    )
    .delete(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        res.json(await revokeApplication(deps, await developer(req, true), params.client_id));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/applications/:client_id/rotate-secret')
    .post(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        res.json(await rotateSecret(deps, await requireDeveloper(deps, req, mintsCredentials(deps)), params.client_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
