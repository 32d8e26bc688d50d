import { Router } from 'express';
import { methodNotAllowed, openCors } from '@svc/http';
import { requireToken } from '../http/require-token.js';
import { perAddress } from '../openid4vci/wallet-limits.js';
import { dcApiResponseHandler, walletResponseHandler } from './answers/answer.handlers.js';
import { createPresentationRequestHandler } from './requests/create-request.handlers.js';
import type { Openid4vpDeps } from './deps.js';
import { requestObjectHandler } from './requests/request-object.handlers.js';
import { presentationResultHandler } from './requests/result.handlers.js';

/**
 * OpenID for Verifiable Presentations 1.0 (docs/credential-issuer.md, "Verifying wallets'
 * presentations"): an integrator asks, the wallet fetches the signed request and answers, the
 * integrator reads the result as presets with evidence.
 *   POST /presentation-requests                      a request (API token, presentations:verify)
 *   GET  /presentation-requests/:id                  its result (API token)
 *   GET  /presentation-requests/:id/request-object   the signed request, for the wallet
 *   POST /presentation-requests/:id/response         the wallet's answer (direct_post.jwt)
 *   POST /presentation-requests/:id/dc-api-response  a page's DC API answer, relayed (API token)
 */
export function openid4vpRouter(deps: Openid4vpDeps & Parameters<typeof perAddress>[0]): Router {
  const router = Router();
  const verifying = requireToken(deps, 'presentations:verify');
  const walletCalls = (what: string) => perAddress(deps, what, () => deps.config.WALLET_REQUESTS_PER_MINUTE);
  router.route('/presentation-requests').post(verifying, createPresentationRequestHandler(deps)).all(methodNotAllowed);
  router.route('/presentation-requests/:id').get(verifying, presentationResultHandler(deps)).all(methodNotAllowed);
  router
    .route('/presentation-requests/:id/request-object')
    .options(openCors)
    .get(openCors, walletCalls('presentation request'), requestObjectHandler(deps))
    .all(methodNotAllowed);
  router
    .route('/presentation-requests/:id/response')
    .options(openCors)
    .post(openCors, walletCalls('presentation response'), walletResponseHandler(deps))
    .all(methodNotAllowed);
  router.route('/presentation-requests/:id/dc-api-response').post(verifying, dcApiResponseHandler(deps)).all(methodNotAllowed);
  return router;
}
