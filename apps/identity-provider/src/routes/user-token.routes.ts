import { Router } from 'express';
import { Prisma, type Db } from '@svc/db';
import { handle, methodNotAllowed, NotFoundError } from '@svc/http';
import { checkAddress, isUuid, ZUserTokenRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { invalidClient, invalidRequest } from '../errors.js';
import { authenticateClient } from '../services/clients.js';
import { appScopedUserId } from '../services/keyed.js';
import { signAccessToken } from '../services/tokens.js';


/** The user's most recently changed active authorization of this client; the user is named by id, email or EIP-55 address. */
async function findUserAuthorization(db: Db, applicationId: string, named: string) {
  let user: Prisma.Sql;
  if (isUuid(named)) user = Prisma.sql`${named}::uuid`;
  else if (named.includes('@')) user = Prisma.sql`(SELECT id FROM "User" WHERE email = ${named.trim().toLowerCase()})`;
  else if (checkAddress(named).ok) user = Prisma.sql`(SELECT "userId" FROM "Wallet" WHERE address = ${named})`;
  else throw invalidRequest('The user must be named by a UUID, an email or an EIP-55 address');
  const [row] = await db.$queryRaw<{ id: string; userId: string; grantedScopes: string[] }[]>`
    SELECT id, "userId", "grantedScopes" FROM "Authorization"
    WHERE "applicationId" = ${applicationId}::uuid AND "userId" = ${user} AND status IN ('approved', 'consumed')
    ORDER BY "updatedAt" DESC LIMIT 1`;
  return row;
}

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
      handle({ body: ZUserTokenRequest }, async ({ body }, _req, res) => {
        const app = await authenticateClient(deps.clients, { clientId: body.client_id, secret: body.client_secret, method: 'post' });
        if (app.isPublic) throw invalidClient('A public client cannot use this endpoint');
        await deps.limitClient(app.clientId);
        const named = body.identifier ?? body.user_id ?? body.email ?? body.evm_address;
        if (!named) throw invalidRequest('Name the user with identifier, user_id, email or evm_address');
        const authorization = await findUserAuthorization(deps.db, app.id, named);
        // One answer for "no such user" and "no authorization": neither is revealed to the client.
        if (!authorization) throw new NotFoundError('No active authorization of this client for that user', 'authorization_not_found');
        const sub = appScopedUserId(deps.config.IDP_SECRET, app.organizationId, authorization.userId);
        const scopes = authorization.grantedScopes;
        const accessToken = await signAccessToken(deps.tokens, app, authorization, scopes);
        const now = deps.tokens.now();
        deps.tokenStamps.record(authorization.id, now);
        deps.counters.tokensIssued.inc({ grant: 'client_user_token' });
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
