import type { RequestHandler } from 'express';
import { pendingAuthorization } from '../authorize/authorizations.js';
import { csrfTokenFor, fromOwnPage, optionalSession } from '../sessions/session-cookie.js';
import { type Locale, pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { renderError, sendPage } from '../views/pages.js';
import type { ConsentDeps } from './deps.js';
import { constantTimeEqual } from '@svc/secrets';

/** A request waiting for the person's sign-in and consent, and the language its pages speak. */
export interface PendingRequest {
  authorization: NonNullable<Awaited<ReturnType<typeof pendingAuthorization>>>;
  lang: Locale;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by requirePendingRequest. */
    pending?: PendingRequest;
  }
}

/**
 * The guard of the hosted pages of one request, named by `authorization_id` in the query or the
 * form (which handle() has checked): leaves it in `res.locals.pending`; when it is gone (used,
 * expired, unknown), answers with the "expired" page.
 */
export function requirePendingRequest(deps: ConsentDeps, from: 'query' | 'body'): RequestHandler {
  return async (req, res, next) => {
    const id = String((from === 'query' ? req.query : (req.body as Record<string, unknown>)).authorization_id);
    const authorization = await pendingAuthorization(deps.db, id, deps.clock.now());
    const lang = pickLocale(authorization?.locale, req.headers['accept-language']);
    if (!authorization) return sendPage(res, 404, renderError(pageTexts(lang).requestExpired, deps.config.provider, lang));
    res.locals.pending = { authorization, lang };
    next();
  };
}

/**
 * After requirePendingRequest, the guard of "Not you?": the form comes from our own page and, when
 * someone is signed in, with their session's CSRF token; else 403, the "form expired" page. Leaves
 * the session, if any, in `res.locals.session`.
 */
export function requireNotYouForm(deps: ConsentDeps): RequestHandler {
  return async (req, res, next) => {
    const session = await optionalSession(deps, req);
    const sent = (req.body as { csrf_token: string }).csrf_token;
    const { lang } = res.locals.pending!;
    if (!fromOwnPage(req, deps.config.issuer) || (session && !constantTimeEqual(csrfTokenFor(deps, session), sent)))
      return sendPage(res, 403, renderError(pageTexts(lang).formExpired, deps.config.provider, lang));
    res.locals.session = session;
    next();
  };
}
