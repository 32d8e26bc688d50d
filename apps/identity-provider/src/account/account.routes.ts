import { type Request, type Response, Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAccountSignInForm } from '@svc/schemas';
import { listPasskeys } from '../passkeys/manage/manage-passkeys.js';
import type { PasskeyDeps } from '../passkeys/deps.js';
import { passkeyScriptSource } from '../passkeys/page-script.js';
import { issueLoginCsrf, requireLoginForm } from '../sessions/login-form.js';
import { signInFromForm } from '../sessions/form-sign-in.js';
import { csrfTokenFor, readSession } from '../sessions/session-cookie.js';
import { pickLocale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { pageCsp } from '../views/pages.js';
import { ACCOUNT_STYLE, renderAccount, renderAccountSignIn } from './account-page.js';

/**
 * GET /account              the person's passkeys (signed in), or a sign-in (a passkey, or the password)
 * POST /account/sign-in     the password form of that sign-in (login CSRF: requireLoginForm)
 */
export function accountRouter(deps: PasskeyDeps): Router {
  const router = Router();
  const { provider } = deps.config;
  const lang = (req: Request) => pickLocale(undefined, req.headers['accept-language']);
  const send = (res: Response, status: number, html: string) =>
    res
      .status(status)
      .set({
        'Content-Security-Policy': pageCsp([], ACCOUNT_STYLE, passkeyScriptSource(deps.config.issuer)),
        'Referrer-Policy': 'same-origin',
        'Cache-Control': 'no-store',
      })
      .type('html')
      .send(html);
  const showSignIn = (req: Request, res: Response, status = 200, error?: string, email?: string) =>
    send(res, status, renderAccountSignIn({ provider, csrf: issueLoginCsrf(deps, res), lang: lang(req), error, email }));

  router
    .route('/account')
    .get(readSession(deps), async (req, res) => {
      const session = res.locals.session;
      if (!session) return showSignIn(req, res);
      const passkeys = await listPasskeys(deps, session.userId);
      send(res, 200, renderAccount({ provider, email: session.email, csrf: csrfTokenFor(deps, session), passkeys, lang: lang(req) }));
    })
    .all(methodNotAllowed);

  const expired = (req: Request, res: Response) => showSignIn(req, res, 403, pageTexts(lang(req)).formExpired, (req.body as { email?: string }).email);
  router
    .route('/account/sign-in')
    .post(
      handle({ body: ZAccountSignInForm }, requireLoginForm(deps, expired), async ({ body }, req, res) => {
        const t = pageTexts(lang(req));
        const refused = await signInFromForm(deps, req, res, body);
        if (refused) return showSignIn(req, res, refused.status, refused.wrongPassword ? t.wrongPassword : t.tooManyAttempts, body.email);
        res.redirect(303, '/account');
      }),
    )
    .all(methodNotAllowed);
  return router;
}
