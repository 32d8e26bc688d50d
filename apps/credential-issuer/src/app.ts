import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { CREDENTIAL_ISSUER_API } from './openapi.js';
import { issuanceRouter } from './issuance/issuance.routes.js';
import { certificatesRouter } from './keys/certificates.routes.js';
import { openid4vciRouter } from './openid4vci/openid4vci.routes.js';
import { openid4vpRouter } from './openid4vp/openid4vp.routes.js';
import { statusListsRouter } from './status-lists/status-lists.routes.js';
import { verificationRouter } from './verification/verification.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp(
    { ...deps, api: CREDENTIAL_ISSUER_API, serverUrl: deps.config.publicUrl },
    {
      routers: [
        issuanceRouter(deps),
        verificationRouter(deps),
        statusListsRouter(deps),
        openid4vciRouter(deps),
        openid4vpRouter(deps),
        certificatesRouter(deps),
      ],
    },
  );
}
