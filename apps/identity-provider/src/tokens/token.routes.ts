import { Router, type RequestHandler } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZTokenRequest } from '@svc/schemas';
import type { TokenDeps } from './deps.js';
import { unsupportedGrantType } from '../errors.js';
import { checkWalletAttestation } from '../clients/wallet-attestation.js';
import { requireClient } from '../clients/require-client.js';
import { TOKEN_GRANTS, tokenGrant } from './grants/registry.js';
import type { TokenGrant } from './grants/token-grant.js';
import { tokenRequestBinding } from '../dpop/dpop-binding.js';

/** RFC 6749 §5.1: a token response is not cached, and neither is a refusal (Pragma for HTTP/1.0 caches). */
const noCache: RequestHandler = (_req, res, next) => {
  res.set('Pragma', 'no-cache');
  next();
};

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
      handle({ body: ZTokenRequest }, noCache, checkWalletAttestation(deps.walletAttestations), requireClient(deps), async ({ body }, req, res) => {
        const { app, presented } = res.locals.client!;
        // A failed grant counts against the client and source as a failed authentication does.
        const result = await deps.limits.countFailures(presented.clientId, req.ip ?? 'unknown', async () => {
          // A client that authenticated with its certificate gets tokens bound to it (RFC 8705 §3), as
          // registered (tls_client_certificate_bound_access_tokens); any DPoP proof it sends is not used.
          const x5t = app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth' ? presented.certificate?.thumbprint : undefined;
          const jkt = x5t ? undefined : await tokenRequestBinding(deps, req, res, app);
          // Token requests have their own budget, which resource reads cannot use up. An authenticated
          // client is charged now; a public client once its grant proves valid, to its user's share.
          if (!app.isPublic) await deps.limits.tokens(app.clientId);
          const admit = app.isPublic ? (holder: string) => deps.limits.tokens(app.clientId, holder, req.ip ?? 'unknown') : async () => undefined;
          const grant: TokenGrant = TOKEN_GRANTS[body.grant_type];
          const unattestedWallet = deps.walletAttestations.config.WALLET_ATTESTATION_REQUIRED && !res.locals.walletAttestation;
          return grant.handle(deps.tokens, app, body, { jkt, x5t, admit, unattestedWallet });
        });
        deps.counters.tokensIssued.inc({ grant: body.grant_type });
        res.json(result);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
