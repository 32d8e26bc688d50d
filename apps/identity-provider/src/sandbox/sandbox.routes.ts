import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZActionParams, ZAuthorizationIdParams, ZCreateTestAuthorizationRequest, ZCreateTestUserRequest, ZTestUserParams } from '@svc/schemas';
import { resetActionProofs } from './action-resets.js';
import type { SandboxDeps } from './deps.js';
import { requireDeveloperCaller, requireSandboxCaller } from './sandbox-caller.js';
import { authorizeTestUser, endDataWindow, expiredAccessToken } from './test-authorizations.js';
import { createTestUser, deleteTestUser, listTestUsers } from './test-users.js';

/**
 * /v2/sandbox/*: test users and browserless authorizations, only in the sandbox (404 in production).
 * Where a body is sent, the caller is checked before it: production answers 404 whatever the body.
 */
export function sandboxRouter(deps: SandboxDeps): Router {
  const router = Router();
  const reads = requireSandboxCaller(deps, { csrf: false });
  const writes = requireSandboxCaller(deps, { csrf: true });
  router
    .route('/v2/sandbox/users')
    .get(reads, async (_req, res) => {
      res.json(await listTestUsers(deps, res.locals.sandboxCaller!.organizationId));
    })
    .post(
      writes,
      handle({ body: ZCreateTestUserRequest }, async ({ body }, _req, res) => {
        const { organizationId } = res.locals.sandboxCaller!;
        await deps.limits.testData(organizationId);
        res.status(201).json(await createTestUser(deps, organizationId, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/users/:user_id')
    .delete(
      handle({ params: ZTestUserParams }, writes, requireDeveloperCaller, async ({ params }, _req, res) => {
        await deleteTestUser(deps, res.locals.sandboxCaller!.organizationId, params.user_id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/actions/:action/proofs')
    .delete(
      handle({ params: ZActionParams }, writes, async ({ params }, _req, res) => {
        await resetActionProofs(deps, res.locals.sandboxCaller!.organizationId, params.action);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations')
    .post(
      writes,
      handle({ body: ZCreateTestAuthorizationRequest }, async ({ body }, _req, res) => {
        const asking = res.locals.sandboxCaller!;
        await deps.limits.testData(asking.organizationId);
        res.status(201).json(await authorizeTestUser(deps, asking, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations/:authorization_id/expire-data')
    .post(
      handle({ params: ZAuthorizationIdParams }, writes, async ({ params }, _req, res) => {
        res.json(await endDataWindow(deps, res.locals.sandboxCaller!, params.authorization_id));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/sandbox/authorizations/:authorization_id/expired-access-token')
    .post(
      handle({ params: ZAuthorizationIdParams }, writes, async ({ params }, _req, res) => {
        res.json(await expiredAccessToken(deps, res.locals.sandboxCaller!, params.authorization_id));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
