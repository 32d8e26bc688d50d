import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZTokenRequest } from '@svc/schemas';
import type { TokenDeps } from './deps.js';
import { unsupportedGrantType } from '../errors.js';
import { authenticateClient, presentedCredentials } from '../clients/client-auth.js';
import { exchangeCode } from './grants/authorization-code.js';
import { refresh } from './grants/refresh-token.js';
import { clientCredentials } from './grants/client-credentials.js';
import { tokenRequestBinding } from '../dpop/dpop-binding.js';

export function tokenRouter(deps: TokenDeps): Router {
  const router = Router();
  router
    .route('/oauth/token')
    .options(openCors)
    .post(
      openCors,
      async (req, _res, next) => {
        // RFC 6749 errors, not the generic validation body, for a token request that does not parse.
        const grant = (req.body as { grant_type?: unknown } | undefined)?.grant_type;
        if (grant !== undefined && grant !== 'authorization_code' && grant !== 'refresh_token' && grant !== 'client_credentials') {
          throw unsupportedGrantType();
        }
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
          const grant = { jkt, x5t, admit };
          switch (body.grant_type) {
            case 'authorization_code':
              return exchangeCode(deps.tokens, app, { code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier }, grant);
            case 'refresh_token':
              return refresh(deps.tokens, app, { refreshToken: body.refresh_token, scope: body.scope }, grant);
            case 'client_credentials':
              return clientCredentials(deps.tokens, app, { scope: body.scope }, { jkt, x5t });
          }
        });
        deps.counters.tokensIssued.inc({ grant: body.grant_type });
        res.json(result);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
