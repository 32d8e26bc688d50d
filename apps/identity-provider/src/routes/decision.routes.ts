import { Router, type Request } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationIdQuery, ZDecisionRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { approve, authorizationFor, contextOf, deny, redirectWith } from '../services/authorizations.js';
import { appScopedUserId } from '../services/keyed.js';
import { isForm } from './request-kind.js';
import { requireSession } from './session-context.js';

/** The account holder's side of an authorization: what it asks (context), and the decision. */
export function decisionRouter(deps: AppDeps): Router {
  const router = Router();
  const { issuer } = deps.config;
  // Both decisions: the signed-in user (CSRF-checked with the cookie) and their own authorization.
  const decider = async (req: Request, authorizationId: string) => {
    const session = await requireSession(deps, req, { csrf: true });
    return { session, authorization: await authorizationFor(deps.db, authorizationId, session.userId) };
  };

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
        const { session, authorization } = await decider(req, body.authorization_id);
        const { code, codeExpiresAt, granted } = await approve(
          deps.db,
          deps.store.cache,
          deps.config.IDP_SECRET,
          authorization,
          body.scopes,
          session,
          deps.clock.now(),
        );
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
        const { authorization } = await decider(req, body.authorization_id);
        await deny(deps.db, authorization, deps.clock.now());
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

  return router;
}
