import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZTokenRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { OAuthError } from '../errors.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { exchangeCode, refresh } from '../services/tokens.js';
import { openCors } from './cors.js';

export function tokenRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/oauth/token')
    .options(openCors)
    .post(openCors, async (req, _res, next) => {
      // RFC 6749 errors, not the generic validation body, for a token request that does not parse.
      const grant = (req.body as { grant_type?: unknown } | undefined)?.grant_type;
      if (grant !== undefined && grant !== 'authorization_code' && grant !== 'refresh_token') {
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token (password and implicit grants are not supported)');
      }
      next();
    }, handle({ body: ZTokenRequest }, async ({ body }, req, res) => {
      res.set('Pragma', 'no-cache');
      const app = await authenticateClient(deps.clients, credentialsFrom(req.headers.authorization, body));
      await deps.limitClient(app.clientId);
      const result =
        body.grant_type === 'authorization_code'
          ? await exchangeCode(deps.tokens, app, { code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier })
          : await refresh(deps.tokens, app, { refreshToken: body.refresh_token, scope: body.scope });
      deps.counters.tokensIssued.inc({ grant: body.grant_type });
      res.json(result);
    }))
    .all(methodNotAllowed);
  return router;
}
