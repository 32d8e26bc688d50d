import { type Request, Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZIntrospectionRequest, ZWalletApprovalsRequest } from '@svc/schemas';
import { authenticateGuarded, type CredentialFields, presentedCredentials } from '../clients/client-auth.js';
import { invalidClient, unauthorizedClient } from '../errors.js';
import type { IntrospectionDeps } from './deps.js';
import { introspect, signedIntrospection } from './introspection.js';
import { walletApprovals } from './wallet-approvals.js';

export const INTROSPECTION_JWT = 'application/token-introspection+jwt';

export function introspectRouter(deps: IntrospectionDeps): Router {
  /** The client that authenticated the request; a public client (it proves nothing) is refused with `refusal`. */
  const confidentialClient = async (req: Request, body: CredentialFields, refusal: string) => {
    const presented = presentedCredentials(deps.config, req, body);
    const app = await authenticateGuarded(deps, presented, req.ip);
    if (app.isPublic) throw invalidClient(refusal, presented.method === 'basic');
    return app;
  };
  const router = Router();
  router
    .route('/oauth/introspect')
    .options(openCors)
    .post(
      openCors,
      handle({ body: ZIntrospectionRequest }, async ({ body }, req, res) => {
        // RFC 7662 §4: the endpoint must not become a way to scan for tokens, so every caller proves
        // who it is (a public client proves nothing) and is charged against a budget as large as its token budget.
        const app = await confidentialClient(req, body, 'Introspection needs client authentication: a public client cannot introspect');
        await deps.limits.introspection(app.clientId);
        const answer = await introspect(deps.tokens, app, body.token, body.token_type_hint, deps.config.credentialIssuer);
        res.set('Cache-Control', 'no-store');
        if (req.accepts(['application/json', INTROSPECTION_JWT]) === INTROSPECTION_JWT) {
          res.type(INTROSPECTION_JWT).send(await signedIntrospection(deps.tokens, app, answer));
          return;
        }
        res.json(answer);
      }),
    )
    .all(methodNotAllowed);
  // The credential issuer's reconciliation: which approvals behind its live credentials still stand.
  const credentialIssuer = deps.config.credentialIssuer;
  if (credentialIssuer) {
    router
      .route('/oauth/wallet-approvals')
      .post(
        handle({ body: ZWalletApprovalsRequest }, async ({ body }, req, res) => {
          const app = await confidentialClient(req, body, 'Client authentication is required: a public client cannot ask');
          if (app.clientId !== credentialIssuer.clientId) throw unauthorizedClient('Only the credential issuer’s client asks about wallets’ approvals');
          await deps.limits.walletApprovals(app.clientId);
          res.set('Cache-Control', 'no-store').json({ approvals: await walletApprovals(deps.tokens.db, body.authorization_id) });
        }),
      )
      .all(methodNotAllowed);
  }
  return router;
}
