import { type Request, Router, type Response } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationIdQuery, ZConsentSignInForm, ZConsentSignOutForm } from '@svc/schemas';
import type { ConsentDeps } from './deps.js';
import { authorizationFor, offeredScopes, releaseAuthorization } from '../authorize/authorizations.js';
import { storedDetails } from '../authorize/authorization-details.js';
import { signInFromForm } from '../sessions/form-sign-in.js';
import { endSession } from '../sessions/end-session.js';
import { renderConsent, renderSignIn } from './consent-pages.js';
import { asksFreshSignIn } from './fresh-sign-in.js';
import { judgeSignIn, type SignInNeed } from '../authorize/sign-in-requirements.js';
import { unmetRequirements } from './unmet-requirements.js';
import { pageTexts } from '../views/locales/registry.js';
import { passkeyScriptSource } from '../passkeys/page-script.js';
import { renderError, sendPage } from '../views/pages.js';
import { issueLoginCsrf, requireLoginForm } from '../sessions/login-form.js';
import { csrfTokenFor, readSession } from '../sessions/session-cookie.js';
import { type PendingRequest, requireNotYouForm, requirePendingRequest } from './pending-request.js';

export function consentRouter(deps: ConsentDeps): Router {
  const router = Router();
  const { provider } = deps.config;

  // Sign-in has no session yet to bind a CSRF token to: its form carries the login-CSRF cookie's token (requireLoginForm).
  const showSignIn = (res: Response, { authorization: a, lang }: PendingRequest, status = 200, error?: string, email?: string, need?: SignInNeed) =>
    sendPage(
      res,
      status,
      renderSignIn({
        provider,
        authorizationId: a.id,
        email: email ?? a.loginHint ?? undefined,
        error,
        notice:
          need === 'acr'
            ? pageTexts(lang).signInWithPasskey(a.application.name)
            : need && need !== 'no_session'
              ? pageTexts(lang).signInAgain(a.application.name)
              : undefined,
        csrf: issueLoginCsrf(deps, res),
        appName: a.application.name,
        lang,
      }),
      [],
      passkeyScriptSource(deps.config.issuer),
    );
  const formExpired = (req: Request, res: Response) =>
    showSignIn(res, res.locals.pending!, 403, pageTexts(res.locals.pending!.lang).formExpired, (req.body as { email: string }).email);

  router
    .route('/consent')
    .get(
      handle({ query: ZAuthorizationIdQuery }, requirePendingRequest(deps, 'query'), readSession(deps), async (_input, _req, res) => {
        const { authorization: a, lang } = res.locals.pending!;
        const session = res.locals.session;
        if (!session || asksFreshSignIn(a, session, deps.config.issuer)) return showSignIn(res, res.locals.pending!);
        const verdict = judgeSignIn(a, a.createdAt, session, deps.clock.now());
        if (!verdict.ok && 'need' in verdict) return showSignIn(res, res.locals.pending!, 200, undefined, session.email, verdict.need);
        if (!verdict.ok) return res.redirect(303, await unmetRequirements(deps, a, session.userId));
        const bound = await authorizationFor(deps.db, a.id, session.userId).catch(() => undefined);
        if (!bound) return sendPage(res, 404, renderError(pageTexts(lang).otherAccount, provider, lang));
        sendPage(
          res,
          200,
          renderConsent({
            provider,
            authorizationId: a.id,
            appName: a.application.name,
            organizationName: a.application.organization.name,
            scopes: offeredScopes(bound),
            requested: bound.requestedScopes,
            credentials: storedDetails(bound.authorizationDetails).map((d) => ({
              configurationId: d.credential_configuration_id,
              issuerHost: new URL(d.locations![0]!).host,
            })),
            csrf: csrfTokenFor(deps, session),
            email: session.email,
            lang,
          }),
          // Approve and Deny answer 303 to the client's redirect URI; form-action must allow it.
          [new URL(a.redirectUri).origin],
        );
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/consent/sign-in')
    .post(
      handle({ body: ZConsentSignInForm }, requirePendingRequest(deps, 'body'), requireLoginForm(deps, formExpired), async ({ body }, req, res) => {
        const { authorization: a, lang } = res.locals.pending!;
        const t = pageTexts(lang);
        const refused = await signInFromForm(deps, req, res, body);
        if (refused) return showSignIn(res, res.locals.pending!, refused.status, refused.wrongPassword ? t.wrongPassword : t.tooManyAttempts, body.email);
        res.redirect(303, `/consent?authorization_id=${a.id}`);
      }),
    )
    .all(methodNotAllowed);

  // "Not you?": the session ends and the same request asks for a sign-in again.
  router
    .route('/consent/sign-out')
    .post(
      handle({ body: ZConsentSignOutForm }, requirePendingRequest(deps, 'body'), requireNotYouForm(deps), async (_input, req, res) => {
        const { authorization: a } = res.locals.pending!;
        const session = res.locals.session;
        if (session) await releaseAuthorization(deps.db, a.id, session.userId);
        await endSession(deps, req, res);
        res.redirect(303, `/consent?authorization_id=${a.id}`);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
