import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZSignInRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { SESSION_TTL_SECONDS, signIn, signOut } from '../services/sessions.js';
import { isForm } from './request-kind.js';
import { assertSameOrigin, clearSessionCookie, presentedSession, requireSession, setSessionCookie } from './session-context.js';

export function sessionRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/auth/session')
    .post(
      handle({ body: ZSignInRequest }, async ({ body }, req, res) => {
        // A browser form can be posted here from any site (login CSRF): a form must come from our own
        // pages. JSON needs a CORS preflight this endpoint never grants, so API callers are unaffected.
        if (isForm(req)) assertSameOrigin(req, deps.config.issuer);
        const { token } = await signIn(deps.db, deps.store.cache, { ...body, address: req.ip ?? 'unknown' }, deps.clock.now());
        setSessionCookie(deps, res, token);
        res.json({ session_token: token, expires_in: SESSION_TTL_SECONDS });
      }),
    )
    .delete(async (req, res) => {
      await requireSession(deps, req, { csrf: true });
      await signOut(deps.db, presentedSession(req).token, deps.clock.now());
      clearSessionCookie(deps, res);
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}
