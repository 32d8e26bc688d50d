import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { CREDENTIAL_ISSUER_API } from './openapi.js';
import { credentialsRouter } from './issuance/issuance.routes.js';
import { statusListsRouter } from './status-lists/status-lists.routes.js';
import { walletsRouter } from './openid4vci/openid4vci.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp(
    { ...deps, api: CREDENTIAL_ISSUER_API, serverUrl: deps.config.publicUrl },
    { routers: [credentialsRouter(deps), statusListsRouter(deps), walletsRouter(deps)] },
  );
}
