import { type Request, Router, type Response } from 'express';
import { handle, HttpError, methodNotAllowed } from '@svc/http';
import { constantTimeEqual, randomBase62 } from '@svc/secrets';
import { ZAuthorizationIdQuery, ZConsentSignInForm, ZConsentSignOutForm } from '@svc/schemas';
import type { ConsentDeps } from './deps.js';
import { authorizationFor, offeredScopes, pendingAuthorization, releaseAuthorization } from '../authorize/authorizations.js';
import { storedDetails } from '../authorize/authorization-details.js';
import { signIn } from '../sessions/sessions.js';
import { endSession } from '../sessions/end-session.js';
import { renderConsent, renderSignIn } from './consent-pages.js';
import { asksFreshSignIn } from './fresh-sign-in.js';
import { type Locale, pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { renderError, sendPage } from '../views/pages.js';
import { cookie, cookieName, csrfTokenFor, fromOwnPage, optionalSession, setSessionCookie } from '../sessions/session-cookie.js';

export function consentRouter(deps: ConsentDeps): Router {
  const router = Router();
  const { provider } = deps.config;

  const pending = (id: string) => pendingAuthorization(deps.db, id, deps.clock.now());

  /** The pending request and the page language; when it is gone, the "expired" page is sent instead. */
  const pendingOrExpired = async (id: string, req: Request, res: Response) => {
    const a = await pending(id);
    const lang = pickLocale(a?.locale, req.headers['accept-language']);
    if (!a) sendPage(res, 404, renderError(pageTexts(lang).requestExpired, provider, lang));
    return a ? { a, lang } : undefined;
  };

  // Sign-in has no session yet to bind a CSRF token to: the post must come from our own page
  // (Origin, Fetch Metadata), and carry in the form the value of a random cookie (double submit),
  // a __Host- one on https that no other host can plant. Other sites cannot sign a browser into an
  // account of theirs.
  const loginCsrfCookie = cookieName(deps, 'svc_login_csrf');
  const showSignIn = (res: Response, a: NonNullable<Awaited<ReturnType<typeof pending>>>, lang: Locale, status = 200, error?: string, email?: string) => {
    const csrf = randomBase62(32);
    res.cookie(loginCsrfCookie, csrf, { httpOnly: true, sameSite: 'strict', secure: deps.config.issuer.startsWith('https:'), path: '/' });
    sendPage(
      res,
      status,
      renderSignIn({ provider, authorizationId: a.id, email: email ?? a.loginHint ?? undefined, error, csrf, appName: a.application.name, lang }),
    );
  };

  router
    .route('/consent')
    .get(
      handle({ query: ZAuthorizationIdQuery }, async ({ query }, req, res) => {
        const found = await pendingOrExpired(query.authorization_id, req, res);
        if (!found) return;
        const { a, lang } = found;
        const session = await optionalSession(deps, req);
        if (!session || asksFreshSignIn(a, session, deps.config.issuer)) return showSignIn(res, a, lang);
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
      handle({ body: ZConsentSignInForm }, async ({ body }, req, res) => {
        const found = await pendingOrExpired(body.authorization_id, req, res);
        if (!found) return;
        const { a, lang } = found;
        const t = pageTexts(lang);
        const expected = cookie(req, loginCsrfCookie);
        if (!fromOwnPage(req, deps.config.issuer) || !expected || !constantTimeEqual(expected, body.csrf_token))
          return showSignIn(res, a, lang, 403, t.formExpired, body.email);
        try {
          const { token } = await signIn(
            { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
            { email: body.email, password: body.password, address: req.ip ?? 'unknown' },
            deps.clock.now(),
          );
          setSessionCookie(deps, res, token);
        } catch (err) {
          if (err instanceof HttpError && (err.status === 401 || err.status === 429)) {
            if (err.status === 429) res.set(err.headers); // Retry-After, as the JSON answer has it
            return showSignIn(res, a, lang, err.status, err.status === 401 ? t.wrongPassword : t.tooManyAttempts, body.email);
          }
          throw err;
        }
        res.redirect(303, `/consent?authorization_id=${a.id}`);
      }),
    )
    .all(methodNotAllowed);

  // "Not you?": the session ends and the same request asks for a sign-in again.
  router
    .route('/consent/sign-out')
    .post(
      handle({ body: ZConsentSignOutForm }, async ({ body }, req, res) => {
        const found = await pendingOrExpired(body.authorization_id, req, res);
        if (!found) return;
        const { a, lang } = found;
        const session = await optionalSession(deps, req);
        if (!fromOwnPage(req, deps.config.issuer) || (session && !constantTimeEqual(csrfTokenFor(deps, session), body.csrf_token)))
          return sendPage(res, 403, renderError(pageTexts(lang).formExpired, provider, lang));
        if (session) await releaseAuthorization(deps.db, a.id, session.userId);
        await endSession(deps, req, res);
        res.redirect(303, `/consent?authorization_id=${a.id}`);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
