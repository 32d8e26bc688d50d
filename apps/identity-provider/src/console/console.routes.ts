/**
 * The developer console at /console (both environments): the same self-service as /v2/developer and
 * /v2/sandbox, as server-rendered pages. Every form posts here, from this service's own pages
 * (Origin and Fetch Metadata checked) with the session's CSRF token; sign-in and sign-up, which have
 * no session yet, use a double-submit cookie, as the hosted sign-in page does. Each form is checked
 * with the API's own schemas and services, so the console can do nothing the API cannot.
 */
import { HttpError, UnauthorizedError, ValidationError } from '@svc/http';
import { randomBase62, constantTimeEqual } from '@svc/secrets';
import { ZSignupRequest } from '@svc/schemas';
import { type Request, type Response, Router } from 'express';
import { type Form, one, parsed, problemsOf } from './console-forms.js';
import type { SessionUser } from '../sessions/sessions.js';
import { listApiKeys } from '../applications/api-keys.js';
import { listApplications } from '../applications/applications.js';
import type { Developer } from '../developer/developer-auth.js';
import { acceptInvitation, listMembers } from '../developer/members.js';
import { membershipOf } from '../developer/organizations.js';
import { confirmSignUp, pendingSignUp, SIGNUP_LINK_MINUTES, signUp } from '../developer/signup.js';
import { listPersonalAccessTokens } from '../developer/tokens.js';
import { appScopedUserId } from '../keys/keyed.js';
import {
  cookie,
  cookieName,
  csrfTokenFor,
  fromOwnPage,
  optionalSession,
  setSessionCookie,
  clearSessionCookie,
  checkedSession,
} from '../sessions/session-cookie.js';
import type { SandboxDeps } from '../sandbox/deps.js';
import { listTestUsers } from '../sandbox/test-users.js';
import { signIn } from '../sessions/sessions.js';
import { type EndSessionDeps, endSession } from '../sessions/end-session.js';
import { pickLocale } from '../views/locales/locale.js';
import { pageCsp } from '../views/pages.js';
import {
  CONSOLE_STYLE,
  type ConsoleContext,
  renderCheckMail,
  renderConfirmSignUp,
  renderDashboard,
  renderEntry,
  renderNoOrganization,
  renderSecret,
} from './console-pages.js';
import { consoleTexts } from './texts/registry.js';
import { MOVED_FLAG, toAnnouncedAddress } from './announced-address.js';
import { trySignIn } from './try-sign-in.routes.js';
import { type Action, consoleWebhooks, webhookActions } from './console-webhooks.js';
import { organizationActions } from './console-organization.js';
import type { WebhookDeps } from '../webhooks/deps.js';

/** A signed-in developer of the console, and the session that signed them in. */
type Signed = { session: SessionUser; developer: Developer };

export function consoleRouter(deps: SandboxDeps & WebhookDeps & EndSessionDeps): Router {
  const router = Router();
  const { issuer } = deps.config;
  router.use('/console', toAnnouncedAddress(issuer));
  const loginCsrfCookie = cookieName(deps, 'svc_login_csrf');
  const context = (req: Request): ConsoleContext => ({
    lang: pickLocale(typeof req.query.lang === 'string' ? req.query.lang : undefined, req.headers['accept-language']),
    environment: deps.environment.name,
    otherBaseUrl: deps.environment.baseUrl(deps.environment.sandbox ? 'production' : 'sandbox'),
    provider: deps.config.provider.name ?? deps.config.provider.host,
    movedTo: req.query[MOVED_FLAG] === 'moved' ? new URL(issuer).origin : undefined,
  });
  const send = (res: Response, status: number, html: string) =>
    res
      .status(status)
      .set({ 'Content-Security-Policy': pageCsp([], CONSOLE_STYLE), 'Referrer-Policy': 'same-origin', 'Cache-Control': 'no-store' })
      .type('html')
      .send(html);
  const back = (req: Request, res: Response, section = '') => res.redirect(303, `/console?lang=${context(req).lang}${section ? `#${section}` : ''}`);

  /** A login-CSRF cookie of its own, for a form that has no session yet: the token the form carries. */
  const loginCsrf = (res: Response) => {
    const csrf = randomBase62(32);
    res.cookie(loginCsrfCookie, csrf, { httpOnly: true, sameSite: 'strict', secure: issuer.startsWith('https:'), path: '/' });
    return csrf;
  };
  const entry = (req: Request, res: Response, mode: 'sign-in' | 'sign-up', status = 200, error?: string, email?: string) => {
    send(res, status, renderEntry(context(req), { mode, csrf: loginCsrf(res), error, email, signupOpen: deps.config.signup === 'open' }));
  };
  /** The page a sign-up link leads to, or the sign-up form again when the link is no good. */
  const confirmPage = async (req: Request, res: Response, token: string, status = 200, error?: string) => {
    const pending = await pendingSignUp(deps, token).catch((err: unknown) => {
      if (err instanceof HttpError && err.status < 500) return undefined;
      throw err;
    });
    if (!pending) return entry(req, res, 'sign-up', 400, consoleTexts(context(req).lang).linkInvalid);
    send(res, status, renderConfirmSignUp(context(req), { csrf: loginCsrf(res), token, email: pending.email, error }));
  };
  const loginFormOk = (req: Request) => {
    const expected = cookie(req, loginCsrfCookie);
    const sent = (req.body as Form | undefined)?.csrf_token;
    return fromOwnPage(req, issuer) && expected !== undefined && typeof sent === 'string' && constantTimeEqual(expected, sent);
  };

  async function dashboard(req: Request, res: Response, { session, developer }: Signed, status = 200, problems: string[] = []) {
    // Independent reads: one round trip's wait, not eight.
    const [org, changes, applications, apiKeys, members, tokens, webhooks, testUsers] = await Promise.all([
      deps.db.organization.findUniqueOrThrow({ where: { id: developer.organizationId } }),
      deps.db.authorization.findMany({
        where: { application: { organizationId: developer.organizationId }, status: { in: ['approved', 'consumed', 'revoked'] }, userId: { not: null } },
        include: { application: { select: { name: true } } },
        orderBy: { updatedAt: 'desc' },
        take: 10,
      }),
      listApplications(deps, developer),
      listApiKeys(deps, developer),
      listMembers(deps, developer),
      listPersonalAccessTokens(deps, developer),
      consoleWebhooks(deps, developer),
      deps.environment.sandbox ? listTestUsers(deps, developer.organizationId) : undefined,
    ]);
    send(
      res,
      status,
      renderDashboard(context(req), {
        csrf: csrfTokenFor(deps, session),
        email: session.email,
        organization: { name: org.name, role: developer.role, founderUserId: org.ownerUserId },
        applications: applications.items,
        apiKeys: apiKeys.items,
        members: members.items,
        tokens: tokens.items,
        webhooks,
        ...(testUsers ? { testUsers: testUsers.items } : {}),
        changes: changes.map((a) => ({
          application: a.application.name,
          status: a.status === 'revoked' ? 'revoked' : 'active',
          updated_at: a.updatedAt.toISOString(),
          user: appScopedUserId(deps.config.IDP_SECRET, org.id, a.userId!),
        })),
        problems,
      }),
    );
  }

  /**
   * One console action: from our own page, signed in, with the session's CSRF token. A refusal the
   * developer can fix shows the console again with what to correct; a missing session goes back to
   * sign-in.
   */
  const action: Action = (work) => async (req: Request, res: Response) => {
    if (!fromOwnPage(req, issuer))
      return send(res, 403, renderEntry(context(req), { mode: 'sign-in', csrf: '', error: consoleTexts(context(req).lang).formExpired, signupOpen: false }));
    let signed: Signed;
    try {
      // The console is the browser's: its session cookie (with the CSRF token), never a personal access token.
      const session = await checkedSession(deps, req, { csrf: true });
      const membership = await membershipOf(deps.db, session.userId);
      signed = { session, developer: { userId: session.userId, organizationId: membership.organizationId, role: membership.role } };
    } catch (err) {
      if (err instanceof UnauthorizedError) return back(req, res);
      throw err;
    }
    const { developer } = signed;
    try {
      const outcome = await work(developer, (req.body ?? {}) as Form, req);
      if ('secret' in outcome) return send(res, 200, renderSecret(context(req), outcome.secret));
      if ('redirect' in outcome) {
        if (outcome.setCookie) res.cookie(outcome.setCookie.name, outcome.setCookie.value, outcome.setCookie.options);
        return res.redirect(303, outcome.redirect);
      }
      back(req, res, outcome.section);
    } catch (err) {
      if (err instanceof ValidationError) return dashboard(req, res, signed, 400, problemsOf(err));
      if (err instanceof HttpError && err.status < 500) return dashboard(req, res, signed, err.status, [err.description]);
      throw err;
    }
  };

  router.get('/console', async (req, res) => {
    const session = await optionalSession(deps, req);
    if (!session) return entry(req, res, 'sign-in');
    const membership = await membershipOf(deps.db, session.userId).catch(() => undefined);
    if (!membership) return send(res, 200, renderNoOrganization(context(req), { csrf: csrfTokenFor(deps, session), email: session.email }));
    await dashboard(req, res, { session, developer: { userId: session.userId, organizationId: membership.organizationId, role: membership.role } });
  });

  // Open to all where sign-up is; where it is by invitation, to whoever holds an invitation token.
  router.get('/console/signup', (req, res) => entry(req, res, 'sign-up'));

  router.post('/console/sign-in', async (req, res) => {
    const form = (req.body ?? {}) as Form;
    const t = consoleTexts(context(req).lang);
    if (!loginFormOk(req)) return entry(req, res, 'sign-in', 403, t.formExpired);
    try {
      const { token } = await signIn(
        { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
        { email: one(form.email) ?? '', password: typeof form.password === 'string' ? form.password : '', address: req.ip ?? 'unknown' },
        deps.clock.now(),
      );
      setSessionCookie(deps, res, token);
      back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || (err.status !== 401 && err.status !== 429)) throw err;
      if (err.status === 429) res.set(err.headers);
      entry(req, res, 'sign-in', err.status, err.status === 429 ? t.tooManyAttempts : t.wrongPassword, one(form.email));
    }
  });

  router.post('/console/signup', async (req, res) => {
    const form = (req.body ?? {}) as Form;
    const t = consoleTexts(context(req).lang);
    if (!loginFormOk(req)) return entry(req, res, 'sign-up', 403, t.formExpired);
    const email = one(form.email);
    try {
      await deps.limits.signUp(req.ip ?? 'unknown');
      const body = parsed(ZSignupRequest, {
        email,
        password: typeof form.password === 'string' ? form.password : '',
        organization_name: one(form.organization_name),
        invitation_token: one(form.invitation_token),
      });
      // Nothing exists until the mailed link is followed: the same page whether or not the address has an account.
      await signUp(deps, body);
      send(res, 200, renderCheckMail(context(req), { email: body.email, minutes: SIGNUP_LINK_MINUTES }));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      const why = err instanceof ValidationError ? problemsOf(err).join('; ') : err.description;
      entry(req, res, 'sign-up', err.status, why, email);
    }
  });

  // A sign-up link: the page asks for the password; only its form makes the account (mail scanners open links).
  router.get('/console/signup/confirm', (req, res) => confirmPage(req, res, typeof req.query.token === 'string' ? req.query.token : ''));
  router.post('/console/signup/confirm', async (req, res) => {
    const form = (req.body ?? {}) as Form;
    const token = one(form.token) ?? '';
    const password = typeof form.password === 'string' ? form.password : '';
    if (!loginFormOk(req)) return await confirmPage(req, res, token, 403, consoleTexts(context(req).lang).formExpired);
    try {
      const made = await confirmSignUp(deps, { token, password });
      const { token: session } = await signIn(
        { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
        { email: made.email, password, address: req.ip ?? 'unknown' },
        deps.clock.now(),
      );
      setSessionCookie(deps, res, session);
      back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      await confirmPage(req, res, token, err.status, err.description);
    }
  });

  // Signing out of the console ends the person's session, which their apps' sign-ins share: the
  // same end as /oauth/logout, so the apps that registered a back-channel logout URI are told.
  router.post('/console/sign-out', async (req, res) => {
    if (fromOwnPage(req, issuer)) {
      const session = await checkedSession(deps, req, { csrf: true }).catch(() => undefined);
      if (session) await endSession(deps, req, res);
      else clearSessionCookie(deps, res);
    }
    back(req, res);
  });

  router.post('/console/invitations/accept', async (req, res) => {
    if (!fromOwnPage(req, issuer)) return back(req, res);
    const session = await checkedSession(deps, req, { csrf: true }).catch(() => undefined);
    if (!session) return back(req, res);
    try {
      await acceptInvitation(deps, session, one((req.body as Form).invitation_token) ?? '');
      back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      send(res, err.status, renderNoOrganization(context(req), { csrf: csrfTokenFor(deps, session), email: session.email, error: err.description }));
    }
  });

  organizationActions(router, deps, action, (req) => context(req).lang);
  webhookActions(router, deps, action, (req) => context(req).lang);
  trySignIn(router, deps, action, { context, send });
  return router;
}
