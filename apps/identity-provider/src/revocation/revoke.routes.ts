import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZRevokeRequest } from '@svc/schemas';
import type { RevocationDeps } from './deps.js';
import { grantsOfTokens, revokeAuthorizationFor, revokeToken, type RevokeDetail } from './revocation.js';
import { invalidRequest } from '../errors.js';
import { requireRevoker, revocationTargets } from './revoker.js';

export function revokeRouter(deps: RevocationDeps): Router {
  const router = Router();
  router
    .route('/oauth/revoke')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZRevokeRequest }, revocationTargets, requireRevoker(deps), async ({ body }, req, res) => {
        const cascade = body.cascade === true || body.cascade === 1 || body.cascade === '1' || body.cascade === 'true';
        const { authorizationIds, plainTokens } = res.locals.revocationTargets!;
        const who = res.locals.revoker!;
        const source = req.ip ?? 'unknown';
        if (who.kind === 'client') {
          // A public client proves nothing by its id: its revocations never use the client's budget.
          if (!who.app.isPublic) await deps.limits.client(who.app.clientId);
          // Nor may it end a grant by its id alone (the id is in every access token and in the
          // consent and polling URLs): each one needs a token of that grant in the same request.
          if (who.app.isPublic && authorizationIds.length > 0) {
            const proven = await grantsOfTokens(deps.tokens, plainTokens, who.app, body.token_type_hint);
            if (!authorizationIds.every((id) => proven.has(id))) {
              await deps.limits.recordFailure(who.app.clientId, source);
              throw invalidRequest(
                'A public client revokes an authorization_id only with an access or refresh token of that authorization in `token` (or `tokens`)',
              );
            }
          }
        }
        const details: RevokeDetail[] = [];
        for (const id of authorizationIds) details.push(await revokeAuthorizationFor(deps.tokens, id, who));
        if (who.kind === 'client') {
          for (const token of plainTokens) details.push(await revokeToken(deps.tokens, { token, app: who.app, hint: body.token_type_hint, cascade }));
        }
        const revoked = details.filter((d) => d.status === 'revoked');
        for (const d of revoked) deps.counters.tokensRevoked.inc({ subject: d.subject === 'authorization' ? 'authorization' : (d.token_type ?? 'token') });
        const revokedCount = revoked.length;
        // A public client's request that revoked nothing proved nothing: it counts as a failure.
        if (who.kind === 'client' && who.app.isPublic && revokedCount === 0) await deps.limits.recordFailure(who.app.clientId, source);
        res.json({ revoked: revokedCount > 0, revoked_count: revokedCount, details });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
