import { Router, type Request, type Response } from 'express';
import { handle, HttpError, methodNotAllowed } from '@svc/http';
import { isUuid, ZAuthorizationIdQuery, ZAuthorizeQuery, ZDecisionRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { approve, authorizationFor, checkAuthorizeRequest, contextOf, createAuthorization, deny, pendingCode, RedirectableError, redirectWith } from '../services/authorizations.js';
import { appScopedUserId } from '../services/keyed.js';
import { pickLocale } from '../views/locales/index.js';
import { pageCsp, renderError } from '../views/pages.js';
import { optionalSession, requireSession } from './session-context.js';

const wantsHtml = (req: Request) => req.accepts(['json', 'html']) === 'html';
const isForm = (req: Request) => req.is('application/x-www-form-urlencoded') !== false && req.is('application/x-www-form-urlencoded') !== null;

/** Before the redirect URI is trusted, errors are shown, never redirected (RFC 6749 §4.1.2.1). */
function showError(req: Request, res: Response, error: string, description: string): void {
  const locale = typeof req.query.locale === 'string' ? req.query.locale : undefined;
  if (wantsHtml(req)) res.status(400).set('Content-Security-Policy', pageCsp()).type('html').send(renderError(description, pickLocale(locale, req.headers['accept-language'])));
  else res.status(400).json({ error, error_description: description });
}

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
        const now = new Date();
        const authorization = await createAuthorization(
          deps.db,
          app,
          query.redirect_uri,
          { scope: query.scope!, responseType: 'code', codeChallenge: query.code_challenge, codeChallengeMethod: 'S256', state: query.state, nonce: query.nonce, loginHint: query.login_hint, locale: query.locale },
          scopes,
          user?.userId,
          now,
        );
        const consentUrl = `${issuer}/consent?authorization_id=${authorization.id}`;
        if (wantsHtml(req)) return res.redirect(303, consentUrl);
        res.json({ authorization_id: authorization.id, status: authorization.status, consent_url: consentUrl, expires_at: authorization.expiresAt.toISOString() });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/context')
    .get(
      handle({ query: ZAuthorizationIdQuery }, async ({ query }, req, res) => {
        const user = await requireSession(deps, req, { csrf: false });
        const authorization = await authorizationFor(deps.db, query.authorization_id, user.userId);
        res.json(contextOf(authorization, deps.config.IDP_SECRET));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/approve')
    .post(
      handle({ body: ZDecisionRequest }, async ({ body }, req, res) => {
        const session = await requireSession(deps, req, { csrf: true });
        const authorization = await authorizationFor(deps.db, body.authorization_id, session.userId);
        const user = await deps.db.user.findUniqueOrThrow({ where: { id: session.userId } });
        const now = new Date();
        const { code, codeExpiresAt, granted } = await approve(deps.db, deps.store.cache, authorization, body.scopes, { palmVerified: user.palmVerified, authTime: session.authTime }, now);
        const redirectTo = redirectWith(authorization.redirectUri, issuer, { code, state: authorization.state ?? undefined });
        // A browser form post continues with 303 (never 307, which would repost the form).
        if (isForm(req)) return res.redirect(303, redirectTo);
        res.json({
          authorization_id: authorization.id,
          status: 'approved',
          code,
          code_expires_at: codeExpiresAt.toISOString(),
          scopes: granted,
          granted_scopes: granted,
          app_scoped_user_id: appScopedUserId(deps.config.IDP_SECRET, authorization.application.organizationId, session.userId),
          organization_id: authorization.application.organizationId,
          ...(authorization.state !== null ? { state: authorization.state } : {}),
          redirect_uri: authorization.redirectUri,
          client_id: authorization.application.clientId,
          redirect_to: redirectTo,
        });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/deny')
    .post(
      handle({ body: ZDecisionRequest }, async ({ body }, req, res) => {
        const session = await requireSession(deps, req, { csrf: true });
        const authorization = await authorizationFor(deps.db, body.authorization_id, session.userId);
        await deny(deps.db, authorization, new Date());
        const redirectTo = redirectWith(authorization.redirectUri, issuer, {
          error: 'access_denied',
          error_description: 'The user denied the request',
          state: authorization.state ?? undefined,
        });
        if (isForm(req)) return res.redirect(303, redirectTo);
        res.json({ authorization_id: authorization.id, status: 'denied', redirect_uri: authorization.redirectUri, redirect_to: redirectTo });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/result')
    .get(
      // Readable with the authorization id alone, so a device that started the flow can poll;
      // the code it may return is bound to the client and its PKCE verifier, and is single use.
      handle({ query: ZAuthorizationIdQuery }, async ({ query }, _req, res) => {
        const id = query.authorization_id;
        const a = isUuid(id) ? await deps.db.authorization.findUnique({ where: { id } }) : null;
        if (!a) throw new HttpError(404, 'authorization_not_found', 'No such authorization');
        const state = a.state ?? undefined;
        let redirectTo: string | null = null;
        let code: string | undefined;
        if (a.status === 'approved') {
          code = await pendingCode(deps.store.cache, a.id);
          if (code) redirectTo = redirectWith(a.redirectUri, issuer, { code, state });
        } else if (a.status === 'denied') {
          redirectTo = redirectWith(a.redirectUri, issuer, { error: 'access_denied', state });
        }
        res.json({ authorization_id: a.id, status: a.status, redirect_uri: a.redirectUri, state: a.state, ...(code ? { code } : {}), redirect_to: redirectTo });
      }),
    )
    .all(methodNotAllowed);

  return router;
}
