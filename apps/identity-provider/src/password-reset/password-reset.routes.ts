/**
 * Resetting a forgotten password by a single-use link mailed to the account's address:
 *   POST /auth/password-reset           JSON: mail a link, if the address has an account (202 either way)
 *   POST /auth/password-reset/confirm   JSON: the link's token and the new password
 *   GET  /password-reset/new            the request form, linked from the sign-in pages
 *   POST /password-reset/new            its form
 *   GET  /password-reset?token=…        the page a mailed link opens: the new-password form (changes nothing)
 *   POST /password-reset                its form
 * The forms have no session to bind a CSRF token to: each carries its login-CSRF cookie's token and
 * must come from our own page (requireLoginForm), as the sign-in form does.
 */
import { handle, HttpError, methodNotAllowed } from '@svc/http';
import {
  ZNewPassword,
  ZPasswordResetConfirmRequest,
  ZPasswordResetForm,
  ZPasswordResetLinkQuery,
  ZPasswordResetPageQuery,
  ZPasswordResetRequest,
  ZPasswordResetRequestForm,
} from '@svc/schemas';
import { type Request, type Response, Router } from 'express';
import { issueLoginCsrf, requireLoginForm } from '../sessions/login-form.js';
import { optionalSession } from '../sessions/session-cookie.js';
import { type Locale, pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { pageCsp } from '../views/pages.js';
import { liveReset, resetPassword } from './confirm-reset.js';
import type { PasswordResetDeps } from './deps.js';
import { type Back, RESET_STYLE, renderResetDone, renderResetForm, renderResetLinkInvalid, renderResetRequest, renderResetRequested } from './reset-pages.js';
import { mailResetLink, resetRequested } from './request-reset.js';

// The page a link opens carries its token in the address: never cached, never sent to another site.
function sendPage(res: Response, status: number, html: string) {
  res
    .status(status)
    .set({ 'Content-Security-Policy': pageCsp([], RESET_STYLE), 'Referrer-Policy': 'same-origin', 'Cache-Control': 'no-store' })
    .type('html')
    .send(html);
}

const langOf = (req: Request, asked: string | undefined) => pickLocale(asked, req.headers['accept-language']);
const refusedAs = (err: unknown, status: number) => err instanceof HttpError && err.status === status;

export function passwordResetRouter(deps: PasswordResetDeps): Router {
  const router = Router();
  const { provider } = deps.config;
  const minutes = Math.round(deps.config.PASSWORD_RESET_TTL_SECONDS / 60);
  /** Starts the lookup and the mail after the answer (MailLater): nothing in the answer or its timing says whether the address is known. */
  const requestLink = async (req: Request, email: string, lang: Locale) => {
    await deps.limits.passwordResetRequest(req.ip ?? 'unknown');
    deps.mailLater.run('password-reset mail', () => mailResetLink(deps, email, lang));
  };
  const keptSession = async (req: Request) => (await optionalSession(deps, req))?.sessionId;

  const requestPage = (res: Response, input: { lang: Locale; back: Back; status?: number; email?: string; error?: string }) =>
    sendPage(res, input.status ?? 200, renderResetRequest({ provider, csrf: issueLoginCsrf(deps, res), ...input }));
  /** The new-password form of a live link, or why the link is no good. */
  const resetPage = async (res: Response, input: { token: string; lang: Locale; status?: number; error?: string; signOutEverywhere?: boolean }) => {
    const reset = await liveReset(deps, input.token).catch((err: unknown) => {
      if (refusedAs(err, 400)) return undefined;
      throw err;
    });
    if (!reset) return sendPage(res, 400, renderResetLinkInvalid({ provider, lang: input.lang }));
    sendPage(
      res,
      input.status ?? 200,
      renderResetForm({
        provider,
        lang: input.lang,
        csrf: issueLoginCsrf(deps, res),
        token: input.token,
        email: reset.user.email,
        signOutEverywhere: input.signOutEverywhere ?? true,
        error: input.error,
      }),
    );
  };

  router
    .route('/auth/password-reset')
    .post(
      handle({ body: ZPasswordResetRequest }, async ({ body }, req, res) => {
        await requestLink(req, body.email, langOf(req, undefined));
        res.status(202).json(resetRequested(deps));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/auth/password-reset/confirm')
    .post(
      handle({ body: ZPasswordResetConfirmRequest }, async ({ body }, req, res) => {
        const { status, sessions_ended } = await resetPassword(deps, {
          token: body.token,
          password: body.password,
          signOutEverywhere: body.sign_out_everywhere,
          keepSessionId: await keptSession(req),
          lang: langOf(req, undefined),
        });
        res.json({ status, sessions_ended });
      }),
    )
    .all(methodNotAllowed);

  const requestExpired = (req: Request, res: Response) => {
    const form = req.body as { lang?: string; email?: string };
    const lang = langOf(req, form.lang);
    requestPage(res, { lang, back: undefined, status: 403, email: form.email, error: pageTexts(lang).passwordReset.formExpired });
  };
  router
    .route('/password-reset/new')
    .get(
      handle({ query: ZPasswordResetPageQuery }, async ({ query }, req, res) => {
        requestPage(res, { lang: langOf(req, query.lang), back: query.back });
      }),
    )
    .post(
      handle({ body: ZPasswordResetRequestForm }, requireLoginForm(deps, requestExpired), async ({ body }, req, res) => {
        const lang = langOf(req, body.lang);
        const t = pageTexts(lang).passwordReset;
        const asked = ZPasswordResetRequest.safeParse({ email: body.email });
        if (!asked.success)
          return requestPage(res, {
            lang,
            back: body.back,
            status: 400,
            email: body.email,
            error: `${pageTexts(lang).email}: ${asked.error.issues[0]!.message}`,
          });
        try {
          await requestLink(req, asked.data.email, lang);
        } catch (err) {
          if (!refusedAs(err, 429)) throw err;
          res.set((err as HttpError).headers);
          return requestPage(res, { lang, back: body.back, status: 429, email: body.email, error: t.tooMany });
        }
        sendPage(res, 200, renderResetRequested({ provider, lang, email: asked.data.email, minutes, back: body.back }));
      }),
    )
    .all(methodNotAllowed);

  const resetExpired = async (req: Request, res: Response) => {
    const form = req.body as { lang?: string; token?: string };
    const lang = langOf(req, form.lang);
    await resetPage(res, { token: form.token ?? '', lang, status: 403, error: pageTexts(lang).passwordReset.formExpired });
  };
  router
    .route('/password-reset')
    .get(
      handle({ query: ZPasswordResetLinkQuery }, async ({ query }, req, res) => {
        await resetPage(res, { token: query.token, lang: langOf(req, query.lang) });
      }),
    )
    .post(
      handle({ body: ZPasswordResetForm }, requireLoginForm(deps, resetExpired), async ({ body }, req, res) => {
        const lang = langOf(req, body.lang);
        const t = pageTexts(lang).passwordReset;
        const signOutEverywhere = body.sign_out_everywhere !== undefined;
        const again = (error: string) => resetPage(res, { token: body.token, lang, status: 400, error, signOutEverywhere });
        if (body.password !== body.password_again) return again(t.mismatch);
        const strong = ZNewPassword.safeParse(body.password);
        if (!strong.success) return again(body.password.length < 8 ? t.tooShort : `${t.newPassword}: ${strong.error.issues[0]!.message}`);
        try {
          const done = await resetPassword(deps, {
            token: body.token,
            password: body.password,
            signOutEverywhere,
            keepSessionId: await keptSession(req),
            lang,
          });
          sendPage(res, 200, renderResetDone({ provider, lang, signedOut: signOutEverywhere && done.status === 'password_changed' }));
        } catch (err) {
          if (!refusedAs(err, 400)) throw err;
          sendPage(res, 400, renderResetLinkInvalid({ provider, lang }));
        }
      }),
    )
    .all(methodNotAllowed);
  return router;
}
