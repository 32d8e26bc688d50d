import { type Request, type RequestHandler, type Response, Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZEndSessionRequest } from '@svc/schemas';
import { constantTimeEqual } from '@svc/secrets';
import { jwtVerify } from 'jose';
import type { z } from 'zod';
import { csrfTokenFor, fromOwnPage, optionalSession } from '../sessions/session-cookie.js';
import { appScopedUserId, clientSessionId } from '../keys/keyed.js';
import { SIGNING_ALGORITHMS } from '../keys/signing-keys.js';
import type { TokenContext } from '../tokens/token-context.js';
import { pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { renderError, sendPage } from '../views/pages.js';
import type { LogoutDeps } from './deps.js';
import { endSession } from '../sessions/end-session.js';
import { renderSignedOut, renderSignOut } from './logout-pages.js';

type EndSessionRequest = z.infer<typeof ZEndSessionRequest>;

/**
 * An id_token this issuer signed, however old (RP-Initiated Logout §2: an expired one is still a
 * good hint): whose client it was for and whom it names. Anything else (another issuer's, an
 * access or logout token) is no hint.
 */
async function idTokenHint(ctx: TokenContext, hint: string): Promise<{ aud: string; sub: string; sid: unknown } | undefined> {
  try {
    const { payload, protectedHeader } = await jwtVerify(hint, await ctx.keys.keySet(), {
      algorithms: [...SIGNING_ALGORITHMS],
      issuer: ctx.issuer,
      currentDate: new Date(0),
    });
    if (protectedHeader.typ !== 'JWT' || typeof payload.aud !== 'string' || typeof payload.sub !== 'string') return undefined;
    return { aud: payload.aud, sub: payload.sub, sid: payload.sid };
  } catch {
    return undefined;
  }
}

/**
 * The CSP source that allows a form's redirect to `uri`: its origin for http(s), its scheme for a
 * native app's private-use scheme (whose origin is "null"). Registration allows plain hosts only,
 * and a source that is anything else is left out rather than written into the header.
 */
function formSource(uri: string): string[] {
  const url = new URL(uri);
  const source = url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
  return /^[a-z][a-z0-9+.-]*:(\/\/[a-z0-9.-]+(:\d+)?|\/\/\[[0-9a-f:.]+\](:\d+)?)?$/.test(source) ? [source] : [];
}

const withState = (uri: string, state: string | undefined) => {
  if (state === undefined) return uri;
  const url = new URL(uri);
  url.searchParams.set('state', state);
  return url.toString();
};

/**
 * The guard of the sign-out confirmation: a request that carries `csrf_token` is the confirmation
 * page's form, so it must come from this service's own page with the session's token (else 403,
 * the "form expired" page). Leaves the session, if any, in `res.locals.session`.
 */
function requireSignOutForm(deps: LogoutDeps, from: 'query' | 'body'): RequestHandler {
  return async (req, res, next) => {
    const params = (from === 'query' ? req.query : req.body) as EndSessionRequest;
    const session = await optionalSession(deps, req);
    if (session && params.csrf_token !== undefined) {
      const confirmed = fromOwnPage(req, deps.config.issuer) && constantTimeEqual(csrfTokenFor(deps, session), params.csrf_token);
      const lang = pickLocale(params.ui_locales?.split(' ')[0], req.headers['accept-language']);
      if (!confirmed) return sendPage(res, 403, renderError(pageTexts(lang).formExpired, deps.config.provider, lang));
    }
    res.locals.session = session;
    next();
  };
}

/**
 * OpenID Connect RP-Initiated Logout 1.0: an app sends the person here to sign out. The session
 * ends at once when the app proves it speaks for it (an id_token_hint naming this person), else
 * after the person confirms on this service's own page; its clients are told (back-channel
 * logout). The person returns only to a post_logout_redirect_uri registered exactly for that
 * client, with `state`; any other is refused on a page, never followed.
 */
export function logoutRouter(deps: LogoutDeps): Router {
  const router = Router();
  const { provider } = deps.config;

  const endSessionRequest = async (params: EndSessionRequest, req: Request, res: Response) => {
    const lang = pickLocale(params.ui_locales?.split(' ')[0], req.headers['accept-language']);
    const refuse = (description: string) => sendPage(res, 400, renderError(pageTexts(lang).badLink, provider, lang, description));
    const hint = params.id_token_hint === undefined ? undefined : await idTokenHint(deps.tokens, params.id_token_hint);
    if (params.id_token_hint !== undefined && !hint) return refuse('id_token_hint is not an id_token of this issuer');
    if (params.client_id !== undefined && hint && params.client_id !== hint.aud) return refuse('client_id is not the audience of id_token_hint');
    const clientId = params.client_id ?? hint?.aud;
    const app = clientId === undefined ? null : await deps.clients.find(clientId);
    if (clientId !== undefined && !app) return refuse(deps.clients.unknown(clientId));
    if (params.post_logout_redirect_uri !== undefined) {
      if (!app) return refuse('post_logout_redirect_uri needs client_id or id_token_hint: whose registered URIs must it match?');
      if (!app.postLogoutRedirectUris.includes(params.post_logout_redirect_uri))
        return refuse('post_logout_redirect_uri does not exactly match a URI registered for this client');
    }

    const session = res.locals.session;
    if (session) {
      // Proof is an id_token of this very session (its sid, as this client knows it), not merely of
      // this person: an old hint from a log or a history must not sign anyone out unasked.
      const proven =
        hint !== undefined &&
        app !== null &&
        hint.sub === appScopedUserId(deps.config.IDP_SECRET, app.organizationId, session.userId) &&
        hint.sid === clientSessionId(deps.config.IDP_SECRET, app.clientId, session.sessionId);
      if (!proven) {
        // Without proof, the person decides, on a page only this service can post from.
        const csrf = csrfTokenFor(deps, session);
        if (params.csrf_token === undefined) {
          const form = { clientId, postLogoutRedirectUri: params.post_logout_redirect_uri, state: params.state, csrf };
          // CSP form-action covers the redirect that answers the form: the registered return address's origin is allowed.
          const returnTo = params.post_logout_redirect_uri === undefined ? [] : formSource(params.post_logout_redirect_uri);
          return sendPage(res, 200, renderSignOut({ provider, email: session.email, form, lang }), returnTo);
        }
        // Sent back from the confirmation page: requireSignOutForm has checked it.
      }
      await endSession(deps, req, res);
    }
    if (params.post_logout_redirect_uri !== undefined) return res.redirect(303, withState(params.post_logout_redirect_uri, params.state));
    sendPage(res, 200, renderSignedOut({ provider, lang }));
  };

  router
    .route('/oauth/logout')
    .get(handle({ query: ZEndSessionRequest }, requireSignOutForm(deps, 'query'), ({ query }, req, res) => endSessionRequest(query, req, res)))
    .post(handle({ body: ZEndSessionRequest }, requireSignOutForm(deps, 'body'), ({ body }, req, res) => endSessionRequest(body, req, res)))
    .all(methodNotAllowed);
  return router;
}
