import { Router } from 'express';
import { handle, methodNotAllowed, openCors } from '@svc/http';
import { ZIntrospectionRequest, ZWalletApprovalsRequest } from '@svc/schemas';
import { requireClient } from '../clients/require-client.js';
import { unauthorizedClient } from '../errors.js';
import type { IntrospectionDeps } from './deps.js';
import { introspect, signedIntrospection } from './introspection.js';
import { walletApprovals } from './wallet-approvals.js';

export const INTROSPECTION_JWT = 'application/token-introspection+jwt';

export function introspectRouter(deps: IntrospectionDeps): Router {
  const router = Router();
  router
    .route('/oauth/introspect')
    .options(openCors)
    .post(
      openCors,
      // RFC 7662 §4: the endpoint must not become a way to scan for tokens, so every caller proves
      // who it is (a public client proves nothing) and is charged against a budget as large as its token budget.
      handle(
        { body: ZIntrospectionRequest },
        requireClient(deps, { confidential: 'Introspection needs client authentication: a public client cannot introspect' }),
        async ({ body }, req, res) => {
          const { app } = res.locals.client!;
          await deps.limits.introspection(app.clientId);
          const answer = await introspect(deps.tokens, app, body.token, body.token_type_hint, deps.config.credentialIssuer);
          res.set('Cache-Control', 'no-store');
          if (req.accepts(['application/json', INTROSPECTION_JWT]) === INTROSPECTION_JWT) {
            res.type(INTROSPECTION_JWT).send(await signedIntrospection(deps.tokens, app, answer));
            return;
          }
          res.json(answer);
        },
      ),
    )
    .all(methodNotAllowed);
  // The credential issuer's reconciliation: which approvals behind its live credentials still stand.
  const credentialIssuer = deps.config.credentialIssuer;
  if (credentialIssuer) {
    router
      .route('/oauth/wallet-approvals')
      .post(
        handle(
          { body: ZWalletApprovalsRequest },
          requireClient(deps, { confidential: 'Client authentication is required: a public client cannot ask' }),
          async ({ body }, _req, res) => {
            const { app } = res.locals.client!;
            if (app.clientId !== credentialIssuer.clientId) throw unauthorizedClient('Only the credential issuer’s client asks about wallets’ approvals');
            await deps.limits.walletApprovals(app.clientId);
            res.set('Cache-Control', 'no-store').json({ approvals: await walletApprovals(deps.tokens.db, body.authorization_id) });
          },
        ),
      )
      .all(methodNotAllowed);
  }
  return router;
}
