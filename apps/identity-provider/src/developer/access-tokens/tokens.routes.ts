import { handle, methodNotAllowed } from '@svc/http';
import { ZCreateInitialAccessTokenRequest, ZCreatePersonalAccessTokenRequest, ZTokenIdParams } from '@svc/schemas';
import { Router } from 'express';
import type { DeveloperDeps } from '../deps.js';
import { requireDeveloper } from '../developer-auth.js';
import {
  createInitialAccessToken,
  createPersonalAccessToken,
  listInitialAccessTokens,
  listPersonalAccessTokens,
  revokeInitialAccessToken,
  revokePersonalAccessToken,
} from './tokens.js';

/** A developer's personal access tokens, and the organization's initial access tokens (RFC 7591). Making one takes a session. */
export function developerTokensRouter(deps: DeveloperDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/personal-access-tokens')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listPersonalAccessTokens(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreatePersonalAccessTokenRequest }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ body }, _req, res) => {
        res.status(201).json(await createPersonalAccessToken(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/personal-access-tokens/:id')
    .delete(
      handle({ params: ZTokenIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await revokePersonalAccessToken(deps, res.locals.developer!, params.id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/initial-access-tokens')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listInitialAccessTokens(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreateInitialAccessTokenRequest }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ body }, _req, res) => {
        res.status(201).json(await createInitialAccessToken(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/initial-access-tokens/:id')
    .delete(
      handle({ params: ZTokenIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await revokeInitialAccessToken(deps, res.locals.developer!, params.id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  return router;
}
