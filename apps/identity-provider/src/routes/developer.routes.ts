import { Router, type Request } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationListQuery, ZRenameOrganizationRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { developerAuthRequired } from '../errors.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { authorizationChanges, membershipOf, organizationView, renameOrganization } from '../services/organizations.js';
import { optionalSession, requireSession } from './session-context.js';

/** The organization a caller speaks for: a client's (HTTP Basic), or a signed-in developer's. */
async function callerOrganization(deps: AppDeps, req: Request): Promise<string> {
  if (req.headers.authorization?.startsWith('Basic ')) {
    const presented = credentialsFrom(req.headers.authorization, {});
    return (await deps.limits.guardFailures(presented.clientId, req.ip ?? 'unknown', () => authenticateClient(deps.clients, presented, deps.assertions)))
      .organizationId;
  }
  const session = await optionalSession(deps, req);
  if (!session) throw developerAuthRequired();
  return (await membershipOf(deps.db, session.userId)).organizationId;
}

export function developerRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/organization')
    .get(async (req, res) => {
      const session = await requireSession(deps, req, { csrf: false });
      res.json(organizationView((await membershipOf(deps.db, session.userId)).organization, session.userId));
    })
    .put(
      handle({ body: ZRenameOrganizationRequest }, async ({ body }, req, res) => {
        const session = await requireSession(deps, req, { csrf: true });
        res.json(await renameOrganization(deps.db, session.userId, body.name));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/authorizations')
    .get(
      handle({ query: ZAuthorizationListQuery }, async ({ query }, req, res) => {
        res.json(await authorizationChanges(deps.db, deps.config.IDP_SECRET, await callerOrganization(deps, req), query));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
