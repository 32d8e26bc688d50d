import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZUserTokenRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { invalidClient, invalidRequest } from '../errors.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { appScopedUserId } from '../services/keyed.js';
import { signAccessToken } from '../services/tokens.js';
import { activeAuthorizationOf } from '../services/user-tokens.js';
import { tokenRequestBinding } from './dpop.js';

/**
 * A confidential client's access token for a user who already authorized it: the user is named
 * by `user_id`, `email`, `evm_address`, or `identifier` (any of those), and the token carries the
 * scopes of that user's active authorization for this client. No refresh token.
 */
export function userTokenRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/oauth/client/user-token')
    .post(
      handle({ body: ZUserTokenRequest }, async ({ body }, req, res) => {
        const presented = credentialsFrom(undefined, body);
        const app = await deps.limits.guardFailures(presented.clientId, req.ip ?? 'unknown', () =>
          authenticateClient(deps.clients, presented, deps.assertions),
        );
        if (app.isPublic) throw invalidClient('A public client cannot use this endpoint');
        await deps.limits.client(app.clientId);
        const jkt = await tokenRequestBinding(deps, req, res, app);
        const named = body.identifier ?? body.user_id ?? body.email ?? body.evm_address;
        if (!named) throw invalidRequest('Name the user with identifier, user_id, email or evm_address');
        const authorization = await activeAuthorizationOf(deps.sql, deps.tokens.grants, app.id, named);
        const scopes = authorization.grantedScopes;
        const accessToken = await signAccessToken(deps.tokens, app, authorization, scopes, jkt);
        const now = deps.clock.now();
        deps.tokenStamps.record(authorization.id, now);
        deps.counters.tokensIssued.inc({ grant: 'client_user_token' });
        res.json({
          access_token: accessToken,
          token_type: jkt ? 'DPoP' : 'Bearer',
          expires_in: app.accessTokenTtlSeconds,
          issued_at: now.toISOString(),
          user_id: appScopedUserId(deps.config.IDP_SECRET, app.organizationId, authorization.userId),
          client_id: app.clientId,
          authorization_id: authorization.id,
          scopes,
        });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
