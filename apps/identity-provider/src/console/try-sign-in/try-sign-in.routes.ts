/**
 * "Try a sign-in" in the console:
 *   POST /console/applications/:client_id/try   start (signed in, CSRF-checked): on to consent
 *   GET  /console/try-callback                   where the flow ends: the code, the exchange, the tokens
 */
import type { Router } from 'express';
import { z } from 'zod';
import { cookie } from '../../sessions/session-cookie.js';
import { PENDING_TTL_SECONDS } from '../../authorize/authorizations.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import { clientIdParam } from '../console-forms.js';
import type { ConsoleActions } from '../console-action.js';
import type { ConsolePage } from '../console-page.js';
import { renderFramed } from '../console-pages.js';
import { finishTry, startTry, TRY_CALLBACK_PATH, TRY_COOKIE, TryRefused } from './try-sign-in.js';
import { tryRefusedBody, tryResultBody, tryTexts } from './try-sign-in-page.js';

/** What the callback takes: one value of each, of bounded length; anything else is a 400. */
const ZTryCallback = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

export function trySignIn(router: Router, deps: SandboxDeps, { signedIn, action }: ConsoleActions, page: ConsolePage): void {
  const https = deps.config.issuer.startsWith('https:');
  // __Host- on https, as the session cookie: no sibling host can plant a binding.
  const cookieName = `${https ? '__Host-' : ''}${deps.environment.mark(TRY_COOKIE)}`;
  // Strict: the callback is reached from this service's own consent page, never from another site.
  const options = { httpOnly: true, sameSite: 'strict' as const, secure: https, path: '/', maxAge: PENDING_TTL_SECONDS * 1000 };

  router.post(
    '/console/applications/:client_id/try',
    signedIn,
    action(async (developer, _form, req) => {
      const started = await startTry(deps, developer, clientIdParam(req));
      return { redirect: started.consentUrl, setCookie: { name: cookieName, value: started.binding, options } };
    }),
  );

  router.get(TRY_CALLBACK_PATH, async (req, res) => {
    const ctx = page.context(req);
    const t = tryTexts(ctx.lang);
    const refuse = (why: string) => page.send(res, 400, renderFramed(ctx, t.refused, tryRefusedBody(ctx.lang, why)));
    const query = ZTryCallback.safeParse(req.query);
    if (!query.success) return refuse('The callback must carry state, and code or error, once each');
    try {
      const outcome = await finishTry(deps, cookie(req, cookieName), query.data);
      res.clearCookie(cookieName, { ...options, maxAge: undefined });
      page.send(res, 200, renderFramed(ctx, t.title, tryResultBody(ctx.lang, outcome)));
    } catch (err) {
      if (err instanceof TryRefused) return refuse(err.message);
      throw err;
    }
  });
}
