import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZSignInRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { SESSION_TTL_SECONDS, signIn, signOut } from '../services/sessions.js';
import { clearSessionCookie, presentedSession, requireSession, setSessionCookie } from './session-context.js';

export function sessionRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/auth/session')
    .post(
      handle({ body: ZSignInRequest }, async ({ body }, req, res) => {
        const { token } = await signIn(deps.db, deps.store.cache, { ...body, address: req.ip ?? 'unknown' }, new Date());
        setSessionCookie(deps, res, token);
        res.json({ session_token: token, expires_in: SESSION_TTL_SECONDS });
      }),
    )
    .delete(async (req, res) => {
      await requireSession(deps, req, { csrf: true });
      await signOut(deps.db, presentedSession(req).token, new Date());
      clearSessionCookie(deps, res);
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}
