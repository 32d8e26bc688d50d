/** What a signed-in person does with their own account in the console: signing out, joining an organization. */
import { HttpError } from '@svc/http';
import type { RequestHandler } from 'express';
import { acceptInvitation } from '../../developer/members.js';
import { type EndSessionDeps, endSession } from '../../sessions/end-session.js';
import { clearSessionCookie, csrfTokenFor, fromOwnPage } from '../../sessions/session-cookie.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import { type Form, one } from '../console-forms.js';
import type { ConsolePage } from '../console-page.js';
import { renderNoOrganization } from '../console-pages.js';

/**
 * After readConsoleSession. Signing out of the console ends the person's session, which their apps'
 * sign-ins share: the same end as /oauth/logout, so the apps that registered a back-channel logout
 * URI are told. A form from elsewhere changes nothing; one without a live session clears the cookie.
 */
export function signOut(deps: EndSessionDeps, page: ConsolePage): RequestHandler {
  return async (req, res) => {
    if (fromOwnPage(req, deps.config.issuer)) {
      if (res.locals.session) await endSession(deps, req, res);
      else clearSessionCookie(deps, res);
    }
    page.back(req, res);
  };
}

/** After requireConsoleSession: someone signed in, not yet a member, joins the organization that invited their email. */
export function acceptInvitationForm(deps: SandboxDeps, page: ConsolePage): RequestHandler {
  return async (req, res) => {
    const session = res.locals.session!;
    try {
      await acceptInvitation(deps, session, one((req.body as Form).invitation_token) ?? '');
      page.back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      page.send(res, err.status, renderNoOrganization(page.context(req), { csrf: csrfTokenFor(deps, session), email: session.email, error: err.description }));
    }
  };
}
