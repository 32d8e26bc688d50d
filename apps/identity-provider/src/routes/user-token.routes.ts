import { Router } from 'express';
import { handle, methodNotAllowed, NotFoundError } from '@svc/http';
import { checkAddress } from '@svc/schemas';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { invalidClient, invalidRequest } from '../errors.js';
import { authenticateClient } from '../services/clients.js';
import { appScopedUserId } from '../services/keyed.js';
import { signAccessToken } from '../services/tokens.js';

const ZUserToken = z.object({
  client_id: z.string().min(1).max(100),
  client_secret: z.string().min(1).max(200),
  identifier: z.string().max(320).optional(),
  user_id: z.string().max(100).optional(),
  email: z.string().max(320).optional(),
  evm_address: z.string().max(100).optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
      handle({ body: ZUserToken }, async ({ body }, _req, res) => {
        const app = await authenticateClient(deps.db, { clientId: body.client_id, secret: body.client_secret, method: 'post' });
        if (app.isPublic) throw invalidClient('A public client cannot use this endpoint');
        await deps.limitClient(app.clientId);
        const named = body.identifier ?? body.user_id ?? body.email ?? body.evm_address;
        if (!named) throw invalidRequest('Name the user with identifier, user_id, email or evm_address');
        let userId: string | undefined;
        if (UUID.test(named)) userId = named;
        else if (named.includes('@')) userId = (await deps.db.user.findUnique({ where: { email: named.trim().toLowerCase() } }))?.id;
        else if (checkAddress(named).ok) userId = (await deps.db.wallet.findUnique({ where: { address: named } }))?.userId;
        else throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
        const authorization = userId
          ? await deps.db.authorization.findFirst({ where: { applicationId: app.id, userId, status: { in: ['approved', 'consumed'] } }, orderBy: { updatedAt: 'desc' } })
          : null;
        // One answer for "no such user" and "no authorization": neither is revealed to the client.
        if (!authorization) throw new NotFoundError('No active authorization of this client for that user', 'authorization_not_found');
        const now = deps.tokens.now();
        const sub = appScopedUserId(deps.config.IDP_SECRET, app.organizationId, authorization.userId!);
        const scopes = authorization.grantedScopes;
        const accessToken = await signAccessToken(deps.tokens, app, authorization, scopes);
        await deps.db.authorization.update({ where: { id: authorization.id }, data: { lastTokenIssuedAt: now } });
        res.json({
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: app.accessTokenTtlSeconds,
          issued_at: now.toISOString(),
          user_id: sub,
          client_id: app.clientId,
          authorization_id: authorization.id,
          scopes,
        });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
