import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZTokenRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { unsupportedGrantType } from '../errors.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { exchangeCode, refresh } from '../services/tokens.js';
import { openCors } from './cors.js';
import { tokenRequestBinding } from './dpop.js';

export function tokenRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/oauth/token')
    .options(openCors)
    .post(
      openCors,
      async (req, _res, next) => {
        // RFC 6749 errors, not the generic validation body, for a token request that does not parse.
        const grant = (req.body as { grant_type?: unknown } | undefined)?.grant_type;
        if (grant !== undefined && grant !== 'authorization_code' && grant !== 'refresh_token') {
          throw unsupportedGrantType();
        }
        next();
      },
      handle({ body: ZTokenRequest }, async ({ body }, req, res) => {
        res.set('Pragma', 'no-cache');
        const presented = credentialsFrom(req.headers.authorization, body);
        const result = await deps.limits.guardFailures(presented.clientId, req.ip ?? 'unknown', async () => {
          const app = await authenticateClient(deps.clients, presented, deps.assertions);
          const jkt = await tokenRequestBinding(deps, req, res, app);
          // An authenticated client is charged now; a public client once its grant proves valid.
          const admit = () => deps.limits.client(app.clientId);
          if (!app.isPublic) await admit();
          const grant = { jkt, admit: app.isPublic ? admit : async () => undefined };
          return body.grant_type === 'authorization_code'
            ? exchangeCode(deps.tokens, app, { code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier }, grant)
            : refresh(deps.tokens, app, { refreshToken: body.refresh_token, scope: body.scope }, grant);
        });
        deps.counters.tokensIssued.inc({ grant: body.grant_type });
        res.json(result);
      }),
    )
    .all(methodNotAllowed);
  return router;
}
