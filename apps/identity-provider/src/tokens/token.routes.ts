import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZTokenRequest } from '@svc/schemas';
import type { TokenDeps } from './deps.js';
import { unsupportedGrantType } from '../errors.js';
import { authenticateClient, presentedCredentials } from '../clients/client-auth.js';
import { TOKEN_GRANTS, tokenGrant } from './grants/registry.js';
import type { TokenGrant } from './grants/token-grant.js';
import { tokenRequestBinding } from '../dpop/dpop-binding.js';

export function tokenRouter(deps: TokenDeps): Router {
  const router = Router();
  router
    .route('/oauth/token')
    .options(openCors)
    .post(
      openCors,
      async (req, _res, next) => {
        // RFC 6749 §5.2: a grant type with no module in the registry is unsupported_grant_type, not
        // the generic validation body.
        const grantType = (req.body as { grant_type?: unknown } | undefined)?.grant_type;
        if (grantType !== undefined && !tokenGrant(grantType)) throw unsupportedGrantType();
        next();
      },
      handle({ body: ZTokenRequest }, async ({ body }, req, res) => {
        res.set('Pragma', 'no-cache');
        const presented = presentedCredentials(deps.config, req, body);
        const result = await deps.limits.guardFailures(presented.clientId, req.ip ?? 'unknown', async () => {
          const app = await authenticateClient(deps.clients, presented, deps.assertions);
          // A client that authenticated with its certificate gets tokens bound to it (RFC 8705 §3), as
          // registered (tls_client_certificate_bound_access_tokens); any DPoP proof it sends is not used.
          const x5t = app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth' ? presented.certificate?.thumbprint : undefined;
          const jkt = x5t ? undefined : await tokenRequestBinding(deps, req, res, app);
          // Token requests have their own budget, which resource reads cannot use up. An authenticated
          // client is charged now; a public client once its grant proves valid, to its user's share.
          if (!app.isPublic) await deps.limits.tokens(app.clientId);
          const admit = app.isPublic ? (holder: string) => deps.limits.tokens(app.clientId, holder, req.ip ?? 'unknown') : async () => undefined;
          const grant: TokenGrant = TOKEN_GRANTS[body.grant_type];
          return grant.handle(deps.tokens, app, body, { jkt, x5t, admit });
        });
        deps.counters.tokensIssued.inc({ grant: body.grant_type });
        res.json(result);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
