import { handle, methodNotAllowed } from '@svc/http';
import { ZActionParams, ZProofParams, ZProofRequest } from '@svc/schemas';
import { type RequestHandler, Router } from 'express';
import { requireAccessToken } from '../access-token-guard/access-token-guard.js';
import { requireClient } from '../clients/require-client.js';
import { insufficientScope, invalidToken } from '../errors.js';
import type { ActionDeps } from './deps.js';
import { checkProof, proveAction } from './proofs.js';

/**
 * Proofs of an organization's actions:
 *   POST  /v2/actions/{action}/proofs              the person, by an access token of one of its applications (scope openid)
 *   GET   /v2/actions/{action}/proofs/{nullifier}  the integrator's backend, by its application's client credentials
 */
export function proofsRouter(deps: ActionDeps): Router {
  const router = Router();
  router
    .route('/v2/actions/:action/proofs')
    .post(
      handle({ params: ZActionParams, body: ZProofRequest }, requireAccessToken(deps), requireOpenid, async ({ params, body }, _req, res) => {
        const access = res.locals.access!;
        // The token's client says whose action it is: an application proves only its own organization's.
        const client = await deps.clients.find(access.claims.client_id);
        if (!client) throw invalidToken();
        res
          .status(201)
          .json(await proveAction(deps, { organizationId: client.organizationId, action: params.action, userId: access.grant.userId, signal: body.signal }));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/actions/:action/proofs/:nullifier')
    .get(
      handle(
        { params: ZProofParams },
        // A public client proves nothing of who asks: only a confidential one reads counts.
        requireClient(deps, { from: 'header', confidential: 'Only a confidential client may check proofs: a public client holds no secret' }),
        async ({ params }, _req, res) => {
          res.json(await checkProof(deps, res.locals.client!.app.organizationId, params.action, params.nullifier));
        },
      ),
    )
    .all(methodNotAllowed);
  return router;
}

/** A proof speaks for the signed-in person: the token must carry openid. */
const requireOpenid: RequestHandler = (_req, res, next) => {
  if (!res.locals.access!.scopes.includes('openid')) throw insufficientScope('openid');
  next();
};
