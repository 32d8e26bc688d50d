import { Router, type Response } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZClientIdParams } from '@svc/schemas';
import type { DeveloperDeps } from '../developer/deps.js';
import { bearerToken } from '../developer/developer-auth.js';
import { currentRegistration, deleteRegistration, managedClient, register, replaceRegistration } from './registration.js';

/** RFC 7591 §3.2.1: answers carrying credentials are never cached. */
const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });

/** POST /oauth/register (RFC 7591) and /oauth/register/{client_id} (RFC 7592). */
export function registrationRouter(deps: DeveloperDeps): Router {
  const router = Router();
  // Guessing tokens counts as failures, per source address, as client authentication does.
  const guarded = <T>(req: Parameters<typeof bearerToken>[0], run: () => Promise<T>) => deps.limits.guardFailures('oauth-register', req.ip ?? 'unknown', run);
  router
    .route('/oauth/register')
    .post(async (req, res) => {
      const registered = await guarded(req, () => register(deps, bearerToken(req), req.body));
      noStore(res).status(201).json(registered);
    })
    .all(methodNotAllowed);
  router
    .route('/oauth/register/:client_id')
    .get(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        const app = await guarded(req, () => managedClient(deps, params.client_id, bearerToken(req)));
        noStore(res).json(currentRegistration(deps, app));
      }),
    )
    .put(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        const app = await guarded(req, () => managedClient(deps, params.client_id, bearerToken(req)));
        noStore(res).json(await replaceRegistration(deps, app, req.body));
      }),
    )
    .delete(
      handle({ params: ZClientIdParams }, async ({ params }, req, res) => {
        const app = await guarded(req, () => managedClient(deps, params.client_id, bearerToken(req)));
        await deleteRegistration(deps, app);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  return router;
}
