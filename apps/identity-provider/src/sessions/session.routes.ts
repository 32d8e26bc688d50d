import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZSignInRequest } from '@svc/schemas';
import type { SessionDeps } from './deps.js';
import { SESSION_TTL_SECONDS, signIn } from './sessions.js';
import { endSession } from './end-session.js';
import { requireOwnPageForms, requireSession, setSessionCookie } from './session-cookie.js';

export function sessionRouter(deps: SessionDeps): Router {
  const router = Router();
  router
    .route('/auth/session')
    .post(
      // A browser form can be posted here from any site (login CSRF): a form must come from our own pages.
      handle({ body: ZSignInRequest }, requireOwnPageForms(deps.config.issuer), async ({ body }, req, res) => {
        const { token } = await signIn(
          { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
          { ...body, address: req.ip ?? 'unknown' },
          deps.clock.now(),
        );
        setSessionCookie(deps, res, token);
        res.json({ session_token: token, expires_in: SESSION_TTL_SECONDS });
      }),
    )
    .delete(requireSession(deps, { csrf: true }), async (req, res) => {
      await endSession(deps, req, res);
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}
