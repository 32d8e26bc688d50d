import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { WALLET_VERIFY_API } from './openapi.js';
import { verifyRouter } from './routes/verify.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp({ ...deps, api: WALLET_VERIFY_API, serverUrl: deps.config.publicUrl }, { routers: [verifyRouter(deps)] });
}
