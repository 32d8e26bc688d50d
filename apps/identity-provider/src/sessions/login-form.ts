/**
 * A sign-in or sign-up form has no session yet to bind a CSRF token to: the post must come from one
 * of our own pages (Origin, Fetch Metadata), and carry in the form the value of a random cookie it
 * was served with (double submit), a __Host- one on https that no other host can plant. Other
 * sites cannot sign a browser into an account of theirs.
 */
import type { Request, RequestHandler, Response } from 'express';
import { constantTimeEqual, randomBase62 } from '@svc/secrets';
import { cookie, cookieName, fromOwnPage, type SessionCookieDeps } from './session-cookie.js';

/** Sets the form's cookie: the token the form carries. */
export function issueLoginCsrf(deps: SessionCookieDeps, res: Response): string {
  const csrf = randomBase62(32);
  res.cookie(cookieName(deps, 'svc_login_csrf'), csrf, { httpOnly: true, sameSite: 'strict', secure: deps.config.issuer.startsWith('https:'), path: '/' });
  return csrf;
}

/** Whether a sign-in or sign-up form came from our own page with the token of its cookie. */
export function loginFormOk(deps: SessionCookieDeps, req: Request): boolean {
  const expected = cookie(req, cookieName(deps, 'svc_login_csrf'));
  const sent = (req.body as { csrf_token?: unknown } | undefined)?.csrf_token;
  return fromOwnPage(req, deps.config.issuer) && expected !== undefined && typeof sent === 'string' && constantTimeEqual(expected, sent);
}

/** The guard of a sign-in or sign-up form (see loginFormOk): anything else is answered by `refuse`, a page saying the form expired. */
export function requireLoginForm(deps: SessionCookieDeps, refuse: (req: Request, res: Response) => unknown): RequestHandler {
  return async (req, res, next) => {
    if (!loginFormOk(deps, req)) return void (await refuse(req, res));
    next();
  };
}
