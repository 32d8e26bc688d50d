import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { CREDENTIAL_ISSUER_API } from './openapi.js';
import { credentialsRouter } from './routes/credentials.routes.js';
import { statusListsRouter } from './routes/status-lists.routes.js';
import { walletsRouter } from './wallets/wallets.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp(
    { ...deps, api: CREDENTIAL_ISSUER_API, serverUrl: deps.config.publicUrl },
    { routers: [credentialsRouter(deps), statusListsRouter(deps), walletsRouter(deps)] },
  );
}
