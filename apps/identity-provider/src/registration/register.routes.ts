import { Router, type Response } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZClientIdParams } from '@svc/schemas';
import type { DeveloperDeps } from '../developer/deps.js';
import { currentRegistration, deleteRegistration, register, replaceRegistration } from './registration.js';
import { registrationFailures, requireInitialAccessToken, requireRegistrationToken } from './registration-tokens.js';

/** RFC 7591 §3.2.1: answers carrying credentials are never cached. */
const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });

/** POST /oauth/register (RFC 7591) and /oauth/register/{client_id} (RFC 7592). */
export function registrationRouter(deps: DeveloperDeps): Router {
  const router = Router();
  const managing = requireRegistrationToken(deps);
  router
    .route('/oauth/register')
    .post(requireInitialAccessToken(deps), async (req, res) => {
      // Metadata that does not pass counts as a failure too, as it did beside the token.
      const registered = await registrationFailures(deps, req, () => register(deps, res.locals.registrant!, req.body));
      noStore(res).status(201).json(registered);
    })
    .all(methodNotAllowed);
  router
    .route('/oauth/register/:client_id')
    .get(
      handle({ params: ZClientIdParams }, managing, async (_input, _req, res) => {
        noStore(res).json(currentRegistration(deps, res.locals.registeredClient!));
      }),
    )
    .put(
      handle({ params: ZClientIdParams }, managing, async (_input, req, res) => {
        noStore(res).json(await replaceRegistration(deps, res.locals.registeredClient!, req.body));
      }),
    )
    .delete(
      handle({ params: ZClientIdParams }, managing, async (_input, _req, res) => {
        await deleteRegistration(deps, res.locals.registeredClient!);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  return router;
}
