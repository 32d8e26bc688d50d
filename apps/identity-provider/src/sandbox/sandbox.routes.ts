import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAuthorizationIdParams, ZCreateTestAuthorizationRequest, ZCreateTestUserRequest, ZTestUserParams } from '@svc/schemas';
import type { SandboxDeps } from './deps.js';
import { requireDeveloperCaller, sandboxCaller } from './sandbox-caller.js';
import { authorizeTestUser, endDataWindow, expiredAccessToken } from './test-authorizations.js';
import { createTestUser, deleteTestUser, listTestUsers } from './test-users.js';

/** /v2/sandbox/*: test users and browserless authorizations, only in the sandbox (404 in production). */
export function sandboxRouter(deps: SandboxDeps): Router {
  const router = Router();
  const caller = (req: Parameters<typeof sandboxCaller>[1], csrf: boolean) => sandboxCaller(deps, req, { csrf });
  router
    .route('/v2/sandbox/users')
    .get(async (req, res) => {
      res.json(await listTestUsers(deps, (await caller(req, false)).organizationId));
    })
    // The organization first: production answers 404 whatever the body.
    .post(async (req, res, next) => {
      const { organizationId } = await caller(req, true);
      return handle({ body: ZCreateTestUserRequest }, async ({ body }) => {
        await deps.limits.testData(organizationId);
        res.status(201).json(await createTestUser(deps, organizationId, body));
      })(req, res, next);
    })
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/users/:user_id')
    .delete(
      handle({ params: ZTestUserParams }, async ({ params }, req, res) => {
        await deleteTestUser(deps, requireDeveloperCaller(await caller(req, true)), params.user_id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations')
    .post(async (req, res, next) => {
      const asking = await caller(req, true);
      return handle({ body: ZCreateTestAuthorizationRequest }, async ({ body }) => {
        await deps.limits.testData(asking.organizationId);
        res.status(201).json(await authorizeTestUser(deps, asking, body));
      })(req, res, next);
    })
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations/:authorization_id/expire-data')
    .post(
      handle({ params: ZAuthorizationIdParams }, async ({ params }, req, res) => {
        res.json(await endDataWindow(deps, await caller(req, true), params.authorization_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations/:authorization_id/expired-access-token')
    .post(
      handle({ params: ZAuthorizationIdParams }, async ({ params }, req, res) => {
        res.json(await expiredAccessToken(deps, await caller(req, true), params.authorization_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
