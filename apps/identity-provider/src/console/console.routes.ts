/**
 * The developer console at /console (both environments): the same self-service as /v2/developer and
 * /v2/sandbox, as server-rendered pages. Every form posts here, from this service's own pages
 * (Origin and Fetch Metadata checked) with the session's CSRF token; sign-in and sign-up, which have
 * no session yet, use a double-submit cookie, as the hosted sign-in page does. Each form is checked
 * with the API's own schemas and services, so the console can do nothing the API cannot.
 */
import { Router } from 'express';
import type { EndSessionDeps } from '../sessions/end-session.js';
import { requireLoginForm } from '../sessions/login-form.js';
import { readSession } from '../sessions/session-cookie.js';
import type { SandboxDeps } from '../sandbox/deps.js';
import type { WebhookDeps } from '../webhooks/deps.js';
import { toAnnouncedAddress } from './announced-address.js';
import { acceptInvitationForm, signOut } from './sections/console-account.js';
import { type ConsoleActions, consoleAction, requireConsoleOwner } from './console-action.js';
import { applicationActions } from './sections/console-applications.js';
import { consoleDashboard, showConsole } from './sections/console-dashboard.js';
import { consoleEntry } from './console-entry.js';
import { readConsoleSession, requireConsoleDeveloper, requireConsoleSession } from './console-guards.js';
import { organizationActions } from './sections/console-organization.js';
import { consolePage } from './console-page.js';
import { personActionActions } from './sections/console-person-actions.js';
import { webhookActions } from './sections/console-webhooks.js';
import { trySignIn } from './try-sign-in/try-sign-in.routes.js';

export function consoleRouter(deps: SandboxDeps & WebhookDeps & EndSessionDeps): Router {
  const router = Router();
  const page = consolePage(deps);
  const dashboard = consoleDashboard(deps, page);
  const entry = consoleEntry(deps, page);
  router.use('/console', toAnnouncedAddress(deps.config.issuer));

  router.get(
    '/console',
    readSession(deps),
    showConsole(deps, page, dashboard, (req, res) => entry.entry(req, res, 'sign-in')),
  );
  // The way in: no session yet, so each form carries its login-CSRF cookie's token.
  router.get('/console/signup', entry.signUpPage);
  router.post('/console/sign-in', requireLoginForm(deps, entry.expired.signIn), entry.signInForm);
  router.post('/console/signup', requireLoginForm(deps, entry.expired.signUp), entry.signUpForm);
  router.get('/console/signup/confirm', entry.confirmLink);
  router.post('/console/signup/confirm', requireLoginForm(deps, entry.expired.confirm), entry.confirmForm);
  // The account: a form's session is its cookie's, with the session's CSRF token, from our own page.
  router.post('/console/sign-out', readConsoleSession(deps), signOut(deps, page));
  router.post('/console/invitations/accept', requireConsoleSession(deps, page), acceptInvitationForm(deps, page));

  // The sections' actions: signed in, a member of an organization.
  const actions: ConsoleActions = {
    signedIn: requireConsoleDeveloper(deps, page),
    ownerOnly: (what) => requireConsoleOwner(dashboard, what),
    action: consoleAction(page, dashboard, deps.reads),
    lang: (req) => page.context(req).lang,
  };
  applicationActions(router, deps, actions);
  organizationActions(router, deps, actions);
  webhookActions(router, deps, actions);
  personActionActions(router, deps, actions);
  trySignIn(router, deps, actions, page);
  return router;
}
