/**
 * Who posts a console form. The console is the browser's: its session cookie, with the session's
 * CSRF token, from this service's own page; never a personal access token. A form that fails this
 * goes back to the console (which shows sign-in when there is no session), rather than to an error.
 */
import { UnauthorizedError } from '@svc/http';
import type { Request, RequestHandler } from 'express';
import { membershipOf } from '../developer/organizations.js';
import type { SandboxDeps } from '../sandbox/deps.js';
import { checkedSession, fromOwnPage } from '../sessions/session-cookie.js';
import type { ConsolePage } from './console-page.js';
import { renderEntry } from './console-pages.js';
import { consoleTexts } from './texts/registry.js';

type GuardDeps = Pick<SandboxDeps, 'config' | 'environment' | 'db' | 'clock'>;

/**
 * The guard of a console action: from our own page (else 403, the sign-in page saying the form
 * expired), signed in with the CSRF token (a missing session goes back to sign-in), a member of an
 * organization. Leaves the user in `res.locals.session` and the developer in `res.locals.developer`.
 */
export function requireConsoleDeveloper(deps: GuardDeps, page: ConsolePage): RequestHandler {
  return async (req, res, next) => {
    const ctx = page.context(req);
    if (!fromOwnPage(req, deps.config.issuer))
      return page.send(res, 403, renderEntry(ctx, { mode: 'sign-in', csrf: '', error: consoleTexts(ctx.lang).formExpired, signupOpen: false }));
    try {
      const session = await checkedSession(deps, req, { csrf: true });
      const membership = await membershipOf(deps.db, session.userId);
      res.locals.session = session;
      res.locals.developer = { userId: session.userId, organizationId: membership.organizationId, role: membership.role };
    } catch (err) {
      if (err instanceof UnauthorizedError) return page.back(req, res);
      throw err;
    }
    next();
  };
}

/** A form's session: from our own page, with its CSRF token; anything less (or a failure to tell) is none. */
async function formSession(deps: GuardDeps, req: Request) {
  return fromOwnPage(req, deps.config.issuer) ? checkedSession(deps, req, { csrf: true }).catch(() => undefined) : undefined;
}

/** Where a form may come from someone signed in or not (signing out): leaves the form's session, if any, in `res.locals.session`. */
export function readConsoleSession(deps: GuardDeps): RequestHandler {
  return async (req, res, next) => {
    res.locals.session = await formSession(deps, req);
    next();
  };
}

/** The guard of a form for the signed-in (accepting an invitation): without the form's session, back to the console. */
export function requireConsoleSession(deps: GuardDeps, page: ConsolePage): RequestHandler {
  return async (req, res, next) => {
    const session = await formSession(deps, req);
    if (!session) return page.back(req, res);
    res.locals.session = session;
    next();
  };
}
