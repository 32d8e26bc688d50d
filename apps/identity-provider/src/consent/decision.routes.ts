import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationIdQuery, ZDecisionRequest } from '@svc/schemas';
import type { ConsentDeps } from './deps.js';
import { approvalAnswer, approve, authorizationFor, contextOf, deny, redirectWith } from '../authorize/authorizations.js';
import { isForm } from '../http/request-kind.js';
import { requireOwnPageForms, requireSession } from '../sessions/session-cookie.js';

/** The account holder's side of an authorization: what it asks (context), and the decision. */
export function decisionRouter(deps: ConsentDeps): Router {
  const router = Router();
  const { issuer } = deps.config;
  // Both decisions: the signed-in user (CSRF-checked with the cookie) and their own authorization.
  // A form post (the consent page) must also come from our own page, as at POST /auth/session.
  const fromOwnForm = requireOwnPageForms(issuer);

  router
    .route('/oauth/authorize/context')
    .get(
      handle({ query: ZAuthorizationIdQuery }, requireSession(deps, { csrf: false }), async ({ query }, _req, res) => {
        const authorization = await authorizationFor(deps.db, query.authorization_id, res.locals.session!.userId);
        res.json(contextOf(authorization, deps.config.IDP_SECRET));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/approve')
    .post(
      handle({ body: ZDecisionRequest }, fromOwnForm, requireSession(deps, { csrf: true }), async ({ body }, req, res) => {
        const session = res.locals.session!;
        const authorization = await authorizationFor(deps.db, body.authorization_id, session.userId);
        const { code, codeExpiresAt, granted } = await approve(
          { db: deps.db, cache: deps.store.cache, secret: deps.config.IDP_SECRET, environment: deps.environment },
          { authorization, chosen: body.scopes, user: session, now: deps.clock.now() },
        );
        const answer = approvalAnswer(authorization, { code, codeExpiresAt, granted, userId: session.userId, secret: deps.config.IDP_SECRET, issuer });
        // A browser form post continues with 303 (never 307, which would repost the form).
        if (isForm(req)) return res.redirect(303, answer.redirect_to);
        res.json(answer);
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/oauth/authorize/deny')
    .post(
      handle({ body: ZDecisionRequest }, fromOwnForm, requireSession(deps, { csrf: true }), async ({ body }, req, res) => {
        const authorization = await authorizationFor(deps.db, body.authorization_id, res.locals.session!.userId);
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
