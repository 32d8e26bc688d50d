import type { Request, RequestHandler, Response } from 'express';
import { readAuthorization } from '@svc/http';
import { constantTimeEqual } from '@svc/secrets';
import type { CoreDeps } from '@svc/runtime';
import type { Config } from '../config.js';
import { isForm } from '../http/request-kind.js';
import { keyedHash } from '../keys/keyed.js';
import { csrfFailed, sessionRequired } from '../errors.js';
import { SESSION_TOKEN, SESSION_TTL_SECONDS, sessionUser, type SessionUser } from './sessions.js';
import type { EnvironmentGuard } from '../environment/environment.js';

/** What reading, checking and setting the session cookie needs. */
export interface SessionCookieDeps extends Pick<CoreDeps, 'db' | 'clock'> {
  config: Config;
  environment: EnvironmentGuard;
}

/**
 * A cookie's name: on https with the __Host- prefix, which browsers accept only from this host,
 * Secure, with Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant it
 * (a planted double-submit or session cookie is how login CSRF gets past a cookie check). Over
 * http (local development) the prefix is impossible, and the name is plain. Browsers do not keep
 * cookies apart by port, so the sandbox beside production on localhost names its own (`sbx_`).
 */
export function cookieName(deps: SessionCookieDeps, base: 'svc_session' | 'svc_login_csrf'): string {
  const name = deps.environment.mark(base);
  return deps.config.issuer.startsWith('https:') ? `__Host-${name}` : name;
}

export function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // Not percent-encoding we wrote: no session, rather than a failure.
        return undefined;
      }
    }
  }
  return undefined;
}

export interface Presented {
  token: string | undefined;
  /** A cookie rides along on cross-site form posts; a bearer token never does. */
  via: 'cookie' | 'bearer' | 'none';
}

export function presentedSession(deps: SessionCookieDeps, req: Request): Presented {
  const presented = readAuthorization(req);
  if (presented?.scheme === 'Bearer' && presented.token && SESSION_TOKEN.test(presented.token)) return { token: presented.token, via: 'bearer' };
  const fromCookie = cookie(req, cookieName(deps, 'svc_session'));
  return fromCookie ? { token: fromCookie, via: 'cookie' } : { token: undefined, via: 'none' };
}

export function csrfTokenFor(deps: SessionCookieDeps, session: SessionUser): string {
  return keyedHash(deps.config.IDP_SECRET, 'csrf', session.sessionId);
}

export async function optionalSession(deps: SessionCookieDeps, req: Request): Promise<SessionUser | undefined> {
  return sessionUser(deps.db, presentedSession(deps, req).token, deps.clock.now());
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The signed-in user, left by requireSession (and by readSession, where signing in is optional). */
    session?: SessionUser;
  }
}

/**
 * The signed-in user for a state-changing request. With the cookie, the request must also carry
 * the session's CSRF token (form field `csrf_token` or header X-CSRF-Token); with a bearer
 * session token it need not, as browsers never attach those on their own.
 */
export async function checkedSession(deps: SessionCookieDeps, req: Request, options: { csrf: boolean }): Promise<SessionUser> {
  const presented = presentedSession(deps, req);
  const user = await sessionUser(deps.db, presented.token, deps.clock.now());
  if (!user) throw sessionRequired(deps.environment.elsewhere('This session token', presented.token));
  if (options.csrf && presented.via === 'cookie') {
    const sent = (req.body as { csrf_token?: unknown } | undefined)?.csrf_token ?? req.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, csrfTokenFor(deps, user))) {
      throw csrfFailed();
    }
  }
  return user;
}

/**
 * The guard of a route for signed-in users: 401 without a session, 403 without its CSRF token
 * (see checkedSession); leaves the user in `res.locals.session`. The base app has parsed a form
 * body by then, so its `csrf_token` field counts.
 */
export function requireSession(deps: SessionCookieDeps, options: { csrf: boolean }): RequestHandler {
  return async (req, res, next) => {
    res.locals.session = await checkedSession(deps, req, options);
    next();
  };
}

/** Where signing in is optional (a page that otherwise offers it): leaves the signed-in user, if any, in `res.locals.session`. */
export function readSession(deps: SessionCookieDeps): RequestHandler {
  return async (req, res, next) => {
    res.locals.session = await optionalSession(deps, req);
    next();
  };
}

/**
 * Whether a form post came from one of our own pages: the browser's Origin is the issuer's, and
 * Fetch Metadata, when sent, does not say cross-site. Browsers send Origin on every form post,
 * so a post without one did not come from our page. Every state-changing hosted form checks it
 * (sign-in, approve, deny, sign-out), beside its CSRF token.
 */
export function fromOwnPage(req: Request, issuer: string): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  return origin === new URL(issuer).origin && (site === undefined || site === 'same-origin');
}

/**
 * The guard of an endpoint that takes a browser's form as well as JSON: a form must come from one
 * of our own pages (see fromOwnPage), else 403 csrf_failed. JSON needs a CORS preflight these
 * endpoints never grant, so API callers are unaffected.
 */
export function requireOwnPageForms(issuer: string): RequestHandler {
  return (req, _res, next) => {
    if (isForm(req) && !fromOwnPage(req, issuer)) throw csrfFailed('This form must be sent from the sign-in page of this service');
    next();
  };
}

export function setSessionCookie(deps: SessionCookieDeps, res: Response, token: string): void {
  res.cookie(cookieName(deps, 'svc_session'), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.issuer.startsWith('https:'),
    path: '/',
    maxAge: SESSION_TTL_SECONDS * 1000,
  });
}

export function clearSessionCookie(deps: SessionCookieDeps, res: Response): void {
  res.clearCookie(cookieName(deps, 'svc_session'), { httpOnly: true, sameSite: 'lax', secure: deps.config.issuer.startsWith('https:'), path: '/' });
}
