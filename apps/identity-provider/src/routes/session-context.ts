import type { Request, Response } from 'express';
import { constantTimeEqual } from '@svc/secrets';
import type { AppDeps } from '../deps.js';
import { keyedHash } from '../services/keyed.js';
import { csrfFailed, sessionRequired } from '../errors.js';
import { SESSION_TTL_SECONDS, sessionUser, type SessionUser } from '../services/sessions.js';

export const SESSION_COOKIE = 'svc_session';

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

export function presentedSession(req: Request): Presented {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer svcsess_')) return { token: auth.slice(7), via: 'bearer' };
  const fromCookie = cookie(req, SESSION_COOKIE);
  return fromCookie ? { token: fromCookie, via: 'cookie' } : { token: undefined, via: 'none' };
}

export function csrfTokenFor(deps: AppDeps, session: SessionUser): string {
  return keyedHash(deps.config.IDP_SECRET, 'csrf', session.sessionId);
}

export async function optionalSession(deps: AppDeps, req: Request): Promise<SessionUser | undefined> {
  return sessionUser(deps.db, presentedSession(req).token, deps.clock.now());
}

/**
 * The signed-in user for a state-changing request. With the cookie, the request must also carry
 * the session's CSRF token (form field `csrf_token` or header X-CSRF-Token); with a bearer
 * session token it need not, as browsers never attach those on their own.
 */
export async function requireSession(deps: AppDeps, req: Request, options: { csrf: boolean }): Promise<SessionUser> {
  const presented = presentedSession(req);
  const user = await sessionUser(deps.db, presented.token, deps.clock.now());
  if (!user) throw sessionRequired();
  if (options.csrf && presented.via === 'cookie') {
    const sent = (req.body as { csrf_token?: unknown } | undefined)?.csrf_token ?? req.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !constantTimeEqual(sent, csrfTokenFor(deps, user))) {
      throw csrfFailed();
    }
  }
  return user;
}

/**
 * A form post must come from one of our own pages: the browser's Origin is the issuer's, and
 * Fetch Metadata, when sent, does not say cross-site. Browsers send Origin on every form post,
 * so a post without one did not come from our page.
 */
export function assertSameOrigin(req: Request, issuer: string): void {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== new URL(issuer).origin || (site !== undefined && site !== 'same-origin')) {
    throw csrfFailed('This form must be sent from the sign-in page of this service');
  }
}

export function setSessionCookie(deps: AppDeps, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.issuer.startsWith('https:'),
    path: '/',
    maxAge: SESSION_TTL_SECONDS * 1000,
  });
}

export function clearSessionCookie(deps: AppDeps, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: deps.config.issuer.startsWith('https:'), path: '/' });
}
