import { handle, methodNotAllowed } from '@svc/http';
import { actionView, ZActionParams, ZCreateActionRequest, ZUpdateActionRequest } from '@svc/schemas';
import { Router } from 'express';
import { requireDeveloper } from '../developer/developer-auth.js';
import { actionOf, createAction, deleteAction, listActions, updateAction } from './actions.js';
import type { ActionDeps } from './deps.js';

/**
 * /v2/developer/actions: the actions an organization counts per person, managed by its developers.
 *   GET, POST                      /v2/developer/actions
 *   GET, PATCH, DELETE             /v2/developer/actions/{action}
 * An action is no credential: a personal access token may manage it in production too.
 */
export function actionsRouter(deps: ActionDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/actions')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listActions(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreateActionRequest }, requireDeveloper(deps, { csrf: true }), async ({ body }, _req, res) => {
        res.status(201).json(await createAction(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/actions/:action')
    .get(
      handle({ params: ZActionParams }, requireDeveloper(deps, { csrf: false }), async ({ params }, _req, res) => {
        res.json(actionView(await actionOf(deps, res.locals.developer!.organizationId, params.action)));
      }),
    )
    .patch(
      handle({ params: ZActionParams, body: ZUpdateActionRequest }, requireDeveloper(deps, { csrf: true }), async ({ params, body }, _req, res) => {
        res.json(await updateAction(deps, res.locals.developer!, params.action, body));
      }),
    )
    .delete(
      handle({ params: ZActionParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await deleteAction(deps, res.locals.developer!, params.action);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  return router;
}
