import { Router, type Request, type Response } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZAuthorizationIdQuery, ZAuthorizationResultRequest, ZAuthorizeQuery, ZPushedAuthorizationRequest } from '@svc/schemas';
import type { AuthorizeDeps } from './deps.js';
import { invalidRequest, OAuthError, RedirectableError } from '../errors.js';
import { type AuthorizeRequest, authorizationResult, checkAuthorizeRequest, createAuthorization, redirectWith } from './authorizations.js';
import { type PushedRequest, pushRequest, takePushedRequest } from './pushed-requests.js';
import { credentialDetails } from './authorization-details.js';
import { type RequestParameters, requestObjectParameters } from './request-objects.js';
import type { Application } from '../clients/application.js';
import { isFapi } from '../clients/fapi.js';
import { authenticateGuarded, presentedCredentials } from '../clients/client-auth.js';
import { redirectUriMatches } from '../clients/redirect-uris.js';
import { pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { pageCsp, type Provider, renderError } from '../views/pages.js';
import { wantsHtml } from '../http/request-kind.js';
import { optionalSession } from '../sessions/session-cookie.js';
import { pushedRequestBinding } from '../dpop/dpop-binding.js';

/** Before the redirect URI is trusted, errors are shown, never redirected (RFC 6749 §4.1.2.1). */
const errorShower =
  (provider: Provider) =>
  (req: Request, res: Response, error: string, description: string): void => {
    const locale = typeof req.query.locale === 'string' ? req.query.locale : undefined;
    const lang = pickLocale(locale, req.headers['accept-language']);
    if (wantsHtml(req))
      res
        .status(400)
        .set('Content-Security-Policy', pageCsp())
        .type('html')
        .send(renderError(pageTexts(lang).badLink, provider, lang, description));
    else res.status(400).json({ error, error_description: description });
  };

/** The parameters of an authorization request, as the checks and the stored row name them. */
const authorizeRequestOf = (p: RequestParameters): AuthorizeRequest => ({
  scope: p.scope ?? '',
  responseType: p.response_type ?? '',
  codeChallenge: p.code_challenge,
  codeChallengeMethod: p.code_challenge_method,
  state: p.state,
  nonce: p.nonce,
  loginHint: p.login_hint,
  locale: p.locale,
  authorizationDetails: p.authorization_details,
  dpopJkt: p.dpop_jkt,
});

/** The client's side of an authorization: starting it (directly or pushed first), and polling for its outcome. */
export function authorizeRouter(deps: AuthorizeDeps): Router {
  const router = Router();
  const showError = errorShower(deps.config.provider);
  const { issuer } = deps.config;
  /** What /oauth/authorize and /oauth/par both check once client and redirect URI are good: the scopes, and the credentials asked for a wallet. */
  const checkedRequest = (app: Application, request: AuthorizeRequest) => ({
    scopes: checkAuthorizeRequest(app, request),
    details: credentialDetails(request.authorizationDetails, deps.config.credentialIssuer, app.allowedScopes),
  });

  /** Records a checked request as a pending authorization and sends the caller on to consent. */
  const start = async (req: Request, res: Response, app: Application, checked: Omit<PushedRequest, 'clientId'>) => {
    const user = await optionalSession(deps, req);
    const authorization = await createAuthorization(deps.db, {
      app,
      redirectUri: checked.redirectUri,
      request: checked.request,
      scopes: checked.scopes,
      details: checked.details,
      userId: user?.userId,
      now: deps.clock.now(),
    });
    const consentUrl = `${issuer}/consent?authorization_id=${authorization.id}`;
    if (wantsHtml(req)) return res.redirect(303, consentUrl);
    res.json({
      authorization_id: authorization.id,
      status: authorization.status,
      consent_url: consentUrl,
      expires_at: authorization.expiresAt.toISOString(),
    });
  };

  router
    .route('/oauth/authorize')
    .get(
      handle({ query: ZAuthorizeQuery }, async ({ query }, req, res) => {
        const app = await deps.clients.find(query.client_id);
        if (!app) return showError(req, res, 'invalid_client', deps.clients.unknown(query.client_id));
        // Each request writes a row with no authentication: bounded per client and source address.
        if (query.request_uri !== undefined) {
          await deps.limits.authorize(app.clientId, req.ip ?? 'unknown');
          // RFC 9126 §4: the pushed request is the request; what else the URL says is ignored.
          const pushed = await takePushedRequest(deps.store.cache, query.request_uri, app.clientId);
          if (!pushed)
            return showError(req, res, 'invalid_request_uri', 'request_uri is unknown, expired, already used or another client’s: push the request again');
          return start(req, res, app, pushed);
        }
        if (app.requiresPushedAuthorization || isFapi(app))
          return showError(
            req,
            res,
            'invalid_request',
            'This client pushes its authorization requests (RFC 9126): POST them to /oauth/par, then send request_uri',
          );
        // RFC 9101 §5: a signed request object is the request; until it verifies nothing in it is trusted.
        let sent: RequestParameters = query;
        if (query.request !== undefined) {
          try {
            sent = await requestObjectParameters(deps.assertions, app, query.request);
          } catch (err) {
            if (!(err instanceof OAuthError)) throw err;
            return showError(req, res, err.code, err.description);
          }
        }
        if (sent.redirect_uri === undefined || !redirectUriMatches(app.redirectUris, sent.redirect_uri)) {
          return showError(req, res, 'invalid_request', 'redirect_uri does not exactly match a URI registered for this client');
        }
        await deps.limits.authorize(app.clientId, req.ip ?? 'unknown');
        const request = authorizeRequestOf(sent);
        let checked: ReturnType<typeof checkedRequest>;
        try {
          checked = checkedRequest(app, request);
        } catch (err) {
          if (!(err instanceof RedirectableError)) throw err;
          return res.redirect(303, redirectWith(sent.redirect_uri, issuer, { error: err.code, error_description: err.description, state: sent.state }));
        }
        return start(req, res, app, { redirectUri: sent.redirect_uri, request, ...checked });
      }),
    )
    .all(methodNotAllowed);

  // RFC 9126: the client pushes its request first, authenticated, and gets a one-time reference
  // for the browser. Nothing of it travels through the browser, and every error comes back here,
  // to the client, never to a redirect URI.
  router
    .route('/oauth/par')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZPushedAuthorizationRequest }, async ({ body }, req, res) => {
        res.set('Cache-Control', 'no-store');
        const app = await authenticateGuarded(deps, presentedCredentials(deps.config, req, body), req.ip);
        if (body.request_uri !== undefined) throw invalidRequest('request_uri cannot be pushed (RFC 9126 §2.1): push the parameters themselves');
        // RFC 9126 §3: with a request object, its claims are the request and the form's other parameters are ignored.
        const sent = body.request !== undefined ? await requestObjectParameters(deps.assertions, app, body.request) : body;
        if (sent.redirect_uri === undefined || !redirectUriMatches(app.redirectUris, sent.redirect_uri))
          throw invalidRequest('redirect_uri does not exactly match a URI registered for this client');
        await deps.limits.authorize(app.clientId, req.ip ?? 'unknown');
        const request = { ...authorizeRequestOf(sent), dpopJkt: await pushedRequestBinding(deps, req, res, app, sent.dpop_jkt) };
        let checked: ReturnType<typeof checkedRequest>;
        try {
          checked = checkedRequest(app, request);
        } catch (err) {
          throw err instanceof RedirectableError ? new OAuthError(err.code, err.description) : err;
        }
        res.status(201).json(await pushRequest(deps.store.cache, { clientId: app.clientId, redirectUri: sent.redirect_uri, request, ...checked }));
      }),
    )
    .all(methodNotAllowed);

  // Anyone holding the id may poll for the status, so a device that started the flow can follow it;
  // the code goes only to the confidential client that owns the authorization, authenticated (a
  // public client gets it only through the redirect to its registered redirect_uri). Failed client
  // authentication counts per client and source address, as at /oauth/token and /oauth/revoke.
  const result = async (id: string, req: Request, res: Response, body: Record<string, unknown>) => {
    const presented = presentedCredentials(deps.config, req, body);
    const client = presented.method === 'none' ? undefined : await authenticateGuarded(deps, presented, req.ip);
    res.json(
      await authorizationResult(
        { db: deps.db, cache: deps.store.cache, secret: deps.config.IDP_SECRET, environment: deps.environment },
        { issuer, id, client },
      ),
    );
  };
  router
    .route('/oauth/authorize/result')
    .get(handle({ query: ZAuthorizationIdQuery }, ({ query }, req, res) => result(query.authorization_id, req, res, {})))
    .post(handle({ body: ZAuthorizationResultRequest }, ({ body }, req, res) => result(body.authorization_id, req, res, body)))
    .all(methodNotAllowed);

  return router;
}
