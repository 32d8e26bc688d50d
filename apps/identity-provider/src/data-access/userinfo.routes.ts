import { Router } from 'express';
import { methodNotAllowed, openCors } from '@svc/http';
import type { DataAccessDeps } from './deps.js';
import { requireDataWindow } from './data-access.js';
import { requireAccessToken } from '../access-token-guard/access-token-guard.js';

/**
 * Who the token's user is, limited to what its scopes cover: the humanity id (service_id) needs
 * openid, as the service_uuid preset does; email and wallet need profile.full. Like every data
 * read, it ends with the authorization's data window (E4010).
 */
export function userinfoRouter(deps: DataAccessDeps): Router {
  const router = Router();
  router
    .route('/v2/userinfo')
    .options(openCors)
    .get(openCors, requireAccessToken(deps), requireDataWindow(deps), async (_req, res) => {
      const { claims, scopes, grant } = res.locals.access!;
      const user = grant.user;
      res.json({
        sub: claims.sub,
        iss: deps.config.issuer,
        // The data API this answer comes from (a token for the credential issuer too names both).
        aud: deps.config.resource,
        authorization_id: claims.authorization_id,
        scopes,
        updated_at: user.updatedAt.toISOString(),
        ...(scopes.includes('openid') ? { service_id: user.serviceId } : {}),
        ...(scopes.includes('profile.full') ? { wallet_address: user.primaryWallet, email: user.email, email_verified: false } : {}),
      });
    })
    .all(methodNotAllowed);
  return router;
}
