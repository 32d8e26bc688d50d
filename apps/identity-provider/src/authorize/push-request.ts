import type { ValidatedHandler } from '@svc/http';
import type { ZPushedAuthorizationRequest } from '@svc/schemas';
import { redirectUriMatches } from '../clients/redirect-uris.js';
import { pushedRequestBinding } from '../dpop/dpop-binding.js';
import { invalidClient, invalidRequest, OAuthError, RedirectableError } from '../errors.js';
import type { AuthorizeDeps } from './deps.js';
import { pushRequest } from './pushed-requests.js';
import { authorizeRequestOf, checkedRequest } from './request-checks.js';
import { requestObjectParameters } from './request-objects.js';

/**
 * POST /oauth/par (RFC 9126), after requireClient: the request is checked as /oauth/authorize
 * checks it, and kept for the one-time reference the browser brings. Every error comes back to the
 * client, never to a redirect URI.
 */
export function pushRequestHandler(deps: AuthorizeDeps): ValidatedHandler<{ body: typeof ZPushedAuthorizationRequest }> {
  return async ({ body }, req, res) => {
    const { app } = res.locals.client!;
    if (body.request_uri !== undefined) throw invalidRequest('request_uri cannot be pushed (RFC 9126 §2.1): push the parameters themselves');
    // RFC 9126 §3: with a request object, its claims are the request and the form's other parameters are ignored.
    const sent = body.request !== undefined ? await requestObjectParameters(deps.assertions, app, body.request) : body;
    if (sent.redirect_uri === undefined || !redirectUriMatches(app.redirectUris, sent.redirect_uri))
      throw invalidRequest('redirect_uri does not exactly match a URI registered for this client');
    await deps.limits.authorize(app.clientId, req.ip ?? 'unknown');
    const request = { ...authorizeRequestOf(sent), dpopJkt: await pushedRequestBinding(deps, req, res, app, sent.dpop_jkt) };
    let checked: ReturnType<typeof checkedRequest>;
    try {
      checked = checkedRequest(deps.config, app, request);
    } catch (err) {
      throw err instanceof RedirectableError ? new OAuthError(err.code, err.description) : err;
    }
    if (deps.config.WALLET_ATTESTATION_REQUIRED && checked.details?.length && !res.locals.walletAttestation)
      throw invalidClient('A request for credentials needs a wallet attestation here: send OAuth-Client-Attestation and OAuth-Client-Attestation-PoP');
    res.status(201).json(await pushRequest(deps.store.cache, { clientId: app.clientId, redirectUri: sent.redirect_uri, request, ...checked }));
  };
}
