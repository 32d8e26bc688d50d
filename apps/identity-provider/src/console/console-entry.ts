/**
 * The console's way in: the sign-in and sign-up pages and their forms, and the page a mailed
 * sign-up link opens. None has a session yet: each form carries the login-CSRF cookie's token
 * (requireLoginForm), and each page sets a fresh one.
 */
import { HttpError, ValidationError } from '@svc/http';
import { ZSignupRequest } from '@svc/schemas';
import type { Request, RequestHandler, Response } from 'express';
import { confirmSignUp, pendingSignUp, SIGNUP_LINK_MINUTES, signUp } from '../developer/signup/signup.js';
import type { SandboxDeps } from '../sandbox/deps.js';
import { issueLoginCsrf } from '../sessions/login-form.js';
import { setSessionCookie } from '../sessions/session-cookie.js';
import { signIn } from '../sessions/sessions.js';
import { type Form, one, parsed, problemsOf } from './console-forms.js';
import type { ConsolePage } from './console-page.js';
import { renderCheckMail, renderConfirmSignUp, renderEntry } from './console-pages.js';
import { consoleTexts } from './texts/registry.js';

type Mode = 'sign-in' | 'sign-up';

export function consoleEntry(deps: SandboxDeps, page: ConsolePage) {
  const { context, send, back } = page;
  const t = (req: Request) => consoleTexts(context(req).lang);
  const password = (form: Form) => (typeof form.password === 'string' ? form.password : '');
  const signInAs = (email: string, secret: string, req: Request) =>
    signIn(
      { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
      { email, password: secret, address: req.ip ?? 'unknown' },
      deps.clock.now(),
    );

  /** The sign-in or sign-up page, with a login-CSRF cookie of its own: the token its form carries. */
  const entry = (req: Request, res: Response, mode: Mode, status = 200, error?: string, email?: string) => {
    send(res, status, renderEntry(context(req), { mode, csrf: issueLoginCsrf(deps, res), error, email, signupOpen: deps.config.signup === 'open' }), {
      passkeys: mode === 'sign-in',
    });
  };
  /** The page a sign-up link leads to, or the sign-up form again when the link is no good. */
  const confirmPage = async (req: Request, res: Response, token: string, status = 200, error?: string) => {
    const pending = await pendingSignUp(deps, token).catch((err: unknown) => {
      if (err instanceof HttpError && err.status < 500) return undefined;
      throw err;
    });
    if (!pending) return entry(req, res, 'sign-up', 400, t(req).linkInvalid);
    send(res, status, renderConfirmSignUp(context(req), { csrf: issueLoginCsrf(deps, res), token, email: pending.email, error }));
  };

  const signInForm: RequestHandler = async (req, res) => {
    const form = (req.body ?? {}) as Form;
    try {
      const { token } = await signInAs(one(form.email) ?? '', password(form), req);
      setSessionCookie(deps, res, token);
      back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || (err.status !== 401 && err.status !== 429)) throw err;
      if (err.status === 429) res.set(err.headers);
      entry(req, res, 'sign-in', err.status, err.status === 429 ? t(req).tooManyAttempts : t(req).wrongPassword, one(form.email));
    }
  };

  const signUpForm: RequestHandler = async (req, res) => {
    const form = (req.body ?? {}) as Form;
    const email = one(form.email);
    try {
      await deps.limits.signUp(req.ip ?? 'unknown');
      const body = parsed(ZSignupRequest, {
        email,
        password: password(form),
        organization_name: one(form.organization_name),
        invitation_token: one(form.invitation_token),
      });
      // Nothing exists until the mailed link is followed: the same page whether or not the address has an account.
      await signUp(deps, body, context(req).lang);
      send(res, 200, renderCheckMail(context(req), { email: body.email, minutes: SIGNUP_LINK_MINUTES }));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      const why = err instanceof ValidationError ? problemsOf(err).join('; ') : err.description;
      entry(req, res, 'sign-up', err.status, why, email);
    }
  };

  const confirmForm: RequestHandler = async (req, res) => {
    const form = (req.body ?? {}) as Form;
    const token = one(form.token) ?? '';
    try {
      const made = await confirmSignUp(deps, { token, password: password(form) });
      const { token: session } = await signInAs(made.email, password(form), req);
      setSessionCookie(deps, res, session);
      back(req, res);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      await confirmPage(req, res, token, err.status, err.description);
    }
  };

  return {
    entry,
    /** Open to all where sign-up is; where it is by invitation, to whoever holds an invitation token. */
    signUpPage: ((req, res) => entry(req, res, 'sign-up')) satisfies RequestHandler,
    /** A sign-up link: the page asks for the password; only its form makes the account (mail scanners open links). */
    confirmLink: ((req, res) => confirmPage(req, res, typeof req.query.token === 'string' ? req.query.token : '')) satisfies RequestHandler,
    signInForm,
    signUpForm,
    confirmForm,
    /** What a form that did not come from our page with its token is answered: the same page, saying it expired. */
    expired: {
      signIn: (req: Request, res: Response) => entry(req, res, 'sign-in', 403, t(req).formExpired),
      signUp: (req: Request, res: Response) => entry(req, res, 'sign-up', 403, t(req).formExpired),
      confirm: (req: Request, res: Response) => confirmPage(req, res, one(((req.body ?? {}) as Form).token) ?? '', 403, t(req).formExpired),
    },
  };
}
