import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { IDENTITY_PROVIDER_API } from './openapi.js';
import { authorizeRouter } from './routes/authorize.routes.js';
import { consentRouter } from './routes/consent.routes.js';
import { decisionRouter } from './routes/decision.routes.js';
import { developerRouter } from './routes/developer.routes.js';
import { pageErrors } from './routes/page-errors.js';
import { discoveryRouter } from './routes/discovery.routes.js';
import { presetsRouter } from './routes/presets.routes.js';
import { queriesRouter } from './routes/queries.routes.js';
import { revokeRouter } from './routes/revoke.routes.js';
import { sessionRouter } from './routes/session.routes.js';
import { tokenRouter } from './routes/token.routes.js';
import { userinfoRouter } from './routes/userinfo.routes.js';
import { userTokenRouter } from './routes/user-token.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp(
    { ...deps, api: IDENTITY_PROVIDER_API, serverUrl: deps.config.issuer },
    {
      routers: [
        discoveryRouter(deps),
        sessionRouter(deps),
        authorizeRouter(deps),
        decisionRouter(deps),
        consentRouter(deps),
        tokenRouter(deps),
        userinfoRouter(deps),
        revokeRouter(deps),
        userTokenRouter(deps),
        developerRouter(deps),
        presetsRouter(deps),
        queriesRouter(deps),
      ],
      errorPages: pageErrors(deps.isOutage),
    },
  );
}
