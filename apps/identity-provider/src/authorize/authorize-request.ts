import type { ValidatedHandler } from '@svc/http';
import type { ZAuthorizeQuery } from '@svc/schemas';
import type { Request, Response } from 'express';
import type { Application } from '../clients/application.js';
import { isFapi } from '../clients/fapi.js';
import { redirectUriMatches } from '../clients/redirect-uris.js';
import { OAuthError, RedirectableError } from '../errors.js';
import { wantsHtml } from '../http/request-kind.js';
import { optionalSession } from '../sessions/session-cookie.js';
import { pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { pageCsp, type Provider, renderError } from '../views/pages.js';
import { createAuthorization, redirectWith } from './authorizations.js';
import { silentAnswer } from './silent-authorization.js';
import type { AuthorizeDeps } from './deps.js';
import { type PushedRequest, takePushedRequest } from './pushed-requests.js';
import { authorizeRequestOf, checkedRequest } from './request-checks.js';
import { type RequestParameters, requestObjectParameters } from './request-objects.js';

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

/** GET /oauth/authorize: a request (sent whole, signed, or pushed first) becomes a pending authorization, and the browser goes on to consent. */
export function authorizeRequest(deps: AuthorizeDeps): ValidatedHandler<{ query: typeof ZAuthorizeQuery }> {
  const showError = errorShower(deps.config.provider);
  const { issuer } = deps.config;

  /** Records a checked request as a pending authorization and sends the caller on to consent. */
  const start = async (req: Request, res: Response, app: Application, checked: Omit<PushedRequest, 'clientId'>) => {
    const user = await optionalSession(deps, req);
    const now = deps.clock.now();
    // prompt=none: no page may be shown; the answer goes back to the client at once.
    if (checked.requirements?.prompt.includes('none')) return res.redirect(303, await silentAnswer(deps, app, checked, user, now));
    const authorization = await createAuthorization(deps.db, {
      app,
      redirectUri: checked.redirectUri,
      request: checked.request,
      scopes: checked.scopes,
      details: checked.details,
      userId: user?.userId,
      requirements: checked.requirements,
      now,
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

  return async ({ query }, req, res) => {
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
      return showError(req, res, 'invalid_request', 'This client pushes its authorization requests (RFC 9126): POST them to /oauth/par, then send request_uri');
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
      checked = checkedRequest(deps.config, app, request);
    } catch (err) {
      if (!(err instanceof RedirectableError)) throw err;
      return res.redirect(303, redirectWith(sent.redirect_uri, issuer, { error: err.code, error_description: err.description, state: sent.state }));
    }
    // Under WALLET_ATTESTATION_REQUIRED a wallet proves itself at PAR: credentials are never asked for here directly.
    if (deps.config.WALLET_ATTESTATION_REQUIRED && checked.details?.length)
      return res.redirect(
        303,
        redirectWith(sent.redirect_uri, issuer, {
          error: 'invalid_request',
          error_description: 'Push a request for credentials (POST /oauth/par) with a wallet attestation',
          state: sent.state,
        }),
      );
    return start(req, res, app, { redirectUri: sent.redirect_uri, request, ...checked });
  };
}
