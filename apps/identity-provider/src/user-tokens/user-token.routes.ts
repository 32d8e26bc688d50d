import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZUserTokenRequest } from '@svc/schemas';
import type { DataAccessDeps } from '../data-access/deps.js';
import { invalidRequest } from '../errors.js';
import { requireClient } from '../clients/require-client.js';
import { appScopedUserId } from '../keys/keyed.js';
import { signAccessToken } from '../tokens/tokens.js';
import { activeAuthorizationOf } from './user-tokens.js';
import { tokenRequestBinding } from '../dpop/dpop-binding.js';

/**
 * A confidential client's access token for a user who already authorized it: the user is named
 * by `user_id`, `email`, `evm_address`, or `identifier` (any of those), and the token carries the
 * scopes of that user's active authorization for this client. No refresh token.
 */
export function userTokenRouter(deps: DataAccessDeps): Router {
  const router = Router();
  router
    .route('/oauth/client/user-token')
    .post(
      // The credentials in the body (or the certificate a TLS terminator passed on), never Basic.
      handle(
        { body: ZUserTokenRequest },
        requireClient(deps, { from: 'body', confidential: 'A public client cannot use this endpoint' }),
        async ({ body }, req, res) => {
          const { app, presented } = res.locals.client!;
          await deps.limits.tokens(app.clientId);
          // Bound as at the token endpoint: to the certificate a client authenticated with, else to its DPoP key.
          const x5t = app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth' ? presented.certificate?.thumbprint : undefined;
          const jkt = x5t ? undefined : await tokenRequestBinding(deps, req, res, app);
          const named = body.identifier ?? body.user_id ?? body.email ?? body.evm_address;
          if (!named) throw invalidRequest('Name the user with identifier, user_id, email or evm_address');
          const authorization = await activeAuthorizationOf(
            { sql: deps.sql, grants: deps.tokens.grants, pairwiseSecret: deps.config.PAIRWISE_SECRET },
            app,
            named,
          );
          const scopes = authorization.grantedScopes;
          const accessToken = await signAccessToken(deps.tokens, { app, authorization, scopes, jkt, x5t });
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
        },
      ),
    )
    .all(methodNotAllowed);
  return router;
}
