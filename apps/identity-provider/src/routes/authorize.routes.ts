import { Router, type Request, type Response } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationIdQuery, ZAuthorizationResultRequest, ZAuthorizeQuery } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { RedirectableError } from '../errors.js';
import { authorizationResult, checkAuthorizeRequest, createAuthorization, redirectWith } from '../services/authorizations.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { messages, pickLocale } from '../views/locales/index.js';
import { pageCsp, renderError } from '../views/pages.js';
import { wantsHtml } from './request-kind.js';
import { optionalSession } from './session-context.js';

/** Before the redirect URI is trusted, errors are shown, never redirected (RFC 6749 §4.1.2.1). */
function showError(req: Request, res: Response, error: string, description: string): void {
  const locale = typeof req.query.locale === 'string' ? req.query.locale : undefined;
  const lang = pickLocale(locale, req.headers['accept-language']);
  if (wantsHtml(req))
    res
      .status(400)
      .set('Content-Security-Policy', pageCsp())
      .type('html')
      .send(renderError(messages(lang).badLink, lang, description));
  else res.status(400).json({ error, error_description: description });
}

/** The client's side of an authorization: starting it, and polling for its outcome. */
export function authorizeRouter(deps: AppDeps): Router {
  const router = Router();
  const { issuer } = deps.config;

  router
    .route('/oauth/authorize')
    .get(
      handle({ query: ZAuthorizeQuery }, async ({ query }, req, res) => {
        const app = await deps.clients.find(query.client_id);
        if (!app) return showError(req, res, 'invalid_client', 'Unknown client_id');
        if (!app.redirectUris.includes(query.redirect_uri)) {
          return showError(req, res, 'invalid_request', 'redirect_uri does not exactly match a URI registered for this client');
        }
        // Each request writes a row with no authentication: bounded per client and source address.
        await deps.limits.authorize(app.clientId, req.ip ?? 'unknown');
        let scopes: string[];
        try {
          scopes = checkAuthorizeRequest(app, {
            scope: query.scope ?? '',
            responseType: query.response_type ?? '',
            codeChallenge: query.code_challenge,
            codeChallengeMethod: query.code_challenge_method,
          });
        } catch (err) {
          if (!(err instanceof RedirectableError)) throw err;
          return res.redirect(303, redirectWith(query.redirect_uri, issuer, { error: err.code, error_description: err.description, state: query.state }));
        }
        const user = await optionalSession(deps, req);
        const authorization = await createAuthorization(
          deps.db,
          app,
          query.redirect_uri,
          {
            scope: query.scope!,
            responseType: 'code',
            codeChallenge: query.code_challenge,
            codeChallengeMethod: 'S256',
            state: query.state,
            nonce: query.nonce,
            loginHint: query.login_hint,
            locale: query.locale,
          },
          scopes,
          user?.userId,
          deps.clock.now(),
        );
        const consentUrl = `${issuer}/consent?authorization_id=${authorization.id}`;
        if (wantsHtml(req)) return res.redirect(303, consentUrl);
        res.json({
          authorization_id: authorization.id,
          status: authorization.status,
          consent_url: consentUrl,
          expires_at: authorization.expiresAt.toISOString(),
        });
      }),
    )
    .all(methodNotAllowed);

  // Anyone holding the id may poll for the status, so a device that started the flow can follow it;
  // the code goes only to the confidential client that owns the authorization, authenticated (a
  // public client gets it only through the redirect to its registered redirect_uri).
  const result = async (id: string, req: Request, res: Response, body: Record<string, unknown>) => {
    const presented = credentialsFrom(req.headers.authorization, body);
    const client = presented.method === 'none' ? undefined : await authenticateClient(deps.clients, presented, deps.assertions);
    res.json(await authorizationResult(deps.db, deps.store.cache, deps.config.IDP_SECRET, issuer, id, client));
  };
  router
    .route('/oauth/authorize/result')
    .get(handle({ query: ZAuthorizationIdQuery }, ({ query }, req, res) => result(query.authorization_id, req, res, {})))
    .post(handle({ body: ZAuthorizationResultRequest }, ({ body }, req, res) => result(body.authorization_id, req, res, body)))
    .all(methodNotAllowed);

  return router;
}
