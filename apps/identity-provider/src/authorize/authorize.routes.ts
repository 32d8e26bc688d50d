import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZAuthorizationIdQuery, ZAuthorizationResultRequest, ZAuthorizeQuery, ZPushedAuthorizationRequest } from '@svc/schemas';
import { type RequestHandler, type Response, Router } from 'express';
import { optionalClient, requireClient } from '../clients/require-client.js';
import { checkWalletAttestation } from '../clients/wallet-attestation.js';
import { authorizationResult } from './authorizations.js';
import { authorizeRequest } from './authorize-request.js';
import type { AuthorizeDeps } from './deps.js';
import { pushRequestHandler } from './push-request.js';

/** The answer to a pushed request carries a one-time reference: never cached, refusals included. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/** The client's side of an authorization: starting it (directly or pushed first), and polling for its outcome. */
export function authorizeRouter(deps: AuthorizeDeps): Router {
  const router = Router();
  router
    .route('/oauth/authorize')
    .get(handle({ query: ZAuthorizeQuery }, authorizeRequest(deps)))
    .all(methodNotAllowed);

  // RFC 9126: the client pushes its request first, authenticated, and gets a one-time reference
  // for the browser. Nothing of it travels through the browser, and every error comes back here,
  // to the client, never to a redirect URI.
  router
    .route('/oauth/par')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZPushedAuthorizationRequest }, noStore, checkWalletAttestation(deps.walletAttestations), requireClient(deps), pushRequestHandler(deps)),
    )
    .all(methodNotAllowed);

  // Anyone holding the id may poll for the status, so a device that started the flow can follow it;
  // the code goes only to the confidential client that owns the authorization, authenticated (a
  // public client gets it only through the redirect to its registered redirect_uri). Failed client
  // authentication counts per client and source address, as at /oauth/token and /oauth/revoke.
  const result = async (id: string, res: Response) =>
    res.json(
      await authorizationResult(
        { db: deps.db, cache: deps.store.cache, secret: deps.config.IDP_SECRET, environment: deps.environment },
        { issuer: deps.config.issuer, id, client: res.locals.client?.app },
      ),
    );
  router
    .route('/oauth/authorize/result')
    .get(handle({ query: ZAuthorizationIdQuery }, optionalClient(deps, { from: 'header' }), ({ query }, _req, res) => result(query.authorization_id, res)))
    .post(handle({ body: ZAuthorizationResultRequest }, optionalClient(deps), ({ body }, _req, res) => result(body.authorization_id, res)))
    .all(methodNotAllowed);
  return router;
}
