import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAddPasskeyRequest, ZPasskeyParams, ZPasskeySignInRequest, ZRenamePasskeyRequest } from '@svc/schemas';
import { requireSession, setSessionCookie } from '../sessions/session-cookie.js';
import { SESSION_TTL_SECONDS } from '../sessions/sessions.js';
import type { PasskeyDeps } from './deps.js';
import { deletePasskey, listPasskeys, renamePasskey } from './manage/manage-passkeys.js';
import { PASSKEY_SCRIPT_PATH } from './page-script.js';
import { signInOptions, signInWithPasskey } from './sign-in/passkey-sign-in.js';
import { addPasskey, registrationOptions } from './manage/register-passkey.js';
import { limitChallenges } from './sign-in/challenge-limit.js';
import { mailPasskeyChange } from './manage/passkey-mails.js';
import { requireRecentSignIn } from './manage/recent-sign-in.js';

/**
 * POST /v2/me/passkeys/registration-options   options to create a passkey (signed in)
 * GET|POST /v2/me/passkeys                      the person's passkeys; add one
 * PATCH|DELETE /v2/me/passkeys/{id}             rename; delete
 * POST /auth/passkey/options                    a sign-in challenge
 * POST /auth/passkey                            sign in with a passkey (as POST /auth/session)
 * GET /assets/passkeys.js                       the pages' script
 */
export function passkeysRouter(deps: PasskeyDeps): Router {
  const router = Router();
  router
    .route('/v2/me/passkeys/registration-options')
    .post(requireSession(deps, { csrf: true }), requireRecentSignIn(deps), limitChallenges(deps), async (_req, res) => {
      res.json(await registrationOptions(deps, res.locals.session!));
    })
    .all(methodNotAllowed);
  router
    .route('/v2/me/passkeys')
    .get(requireSession(deps, { csrf: false }), async (_req, res) => {
      res.json({ items: await listPasskeys(deps, res.locals.session!.userId) });
    })
    .post(
      handle({ body: ZAddPasskeyRequest }, requireSession(deps, { csrf: true }), requireRecentSignIn(deps), async ({ body }, req, res) => {
        const added = await addPasskey(deps, res.locals.session!, body);
        mailPasskeyChange(deps, req, res.locals.session!, 'added', added.name);
        res.status(201).json(added);
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/me/passkeys/:id')
    .patch(
      handle({ params: ZPasskeyParams, body: ZRenamePasskeyRequest }, requireSession(deps, { csrf: true }), async ({ params, body }, _req, res) => {
        res.json(await renamePasskey(deps, res.locals.session!.userId, params.id, body.name));
      }),
    )
    .delete(
      handle({ params: ZPasskeyParams }, requireSession(deps, { csrf: true }), requireRecentSignIn(deps), async ({ params }, req, res) => {
        const removed = await deletePasskey(deps, res.locals.session!, params.id);
        mailPasskeyChange(deps, req, res.locals.session!, 'removed', removed.name);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);

  // Signing in takes JSON only: a browser form cannot carry a WebAuthn answer, and JSON from
  // another site needs a CORS preflight that these paths never grant (no login CSRF).
  router
    .route('/auth/passkey/options')
    .post(limitChallenges(deps), async (_req, res) => {
      res.json(await signInOptions(deps));
    })
    .all(methodNotAllowed);
  router
    .route('/auth/passkey')
    .post(
      handle({ body: ZPasskeySignInRequest }, async ({ body }, req, res) => {
        const { token } = await signInWithPasskey(deps, { ...body, address: req.ip ?? 'unknown' });
        setSessionCookie(deps, res, token);
        res.json({ session_token: token, expires_in: SESSION_TTL_SECONDS });
      }),
    )
    .all(methodNotAllowed);

  router
    .route(PASSKEY_SCRIPT_PATH)
    .get((_req, res) => {
      res.set('Cache-Control', 'no-cache').type('text/javascript').send(deps.passkeyScript);
    })
    .all(methodNotAllowed);
  return router;
}
