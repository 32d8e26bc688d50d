import type { Express } from 'express';
import { createServiceApp } from '@svc/http';
import type { AppDeps } from './deps.js';
import { IDENTITY_PROVIDER_API } from './openapi.js';
import { authorizeRouter } from './authorize/authorize.routes.js';
import { consentRouter } from './consent/consent.routes.js';
import { decisionRouter } from './consent/decision.routes.js';
import { developerRouter } from './developer/developer.routes.js';
import { developerTokensRouter } from './developer/access-tokens/tokens.routes.js';
import { authorizationsRouter } from './developer/authorizations.routes.js';
import { applicationsRouter } from './applications/applications.routes.js';
import { apiKeysRouter } from './applications/api-keys.routes.js';
import { webhooksRouter } from './webhooks/webhooks.routes.js';
import { actionsRouter } from './actions/actions.routes.js';
import { proofsRouter } from './actions/proofs.routes.js';
import { sandboxRouter } from './sandbox/sandbox.routes.js';
import { registrationRouter } from './registration/register.routes.js';
import { consoleRouter } from './console/console.routes.js';
import { outboxRouter } from './mail/outbox.routes.js';
import { passwordResetRouter } from './password-reset/password-reset.routes.js';
import { pageErrors } from './http/page-errors.js';
import { discoveryRouter } from './discovery/discovery.routes.js';
import { presetsRouter } from './data-access/presets.routes.js';
import { queriesRouter } from './data-access/queries.routes.js';
import { revokeRouter } from './revocation/revoke.routes.js';
import { introspectRouter } from './introspection/introspect.routes.js';
import { logoutRouter } from './logout/logout.routes.js';
import { sessionRouter } from './sessions/session.routes.js';
import { passkeysRouter } from './passkeys/passkeys.routes.js';
import { accountRouter } from './account/account.routes.js';
import { tokenRouter } from './tokens/token.routes.js';
import { userinfoRouter } from './data-access/userinfo.routes.js';
import { userTokenRouter } from './user-tokens/user-token.routes.js';

export function createApp(deps: AppDeps): Express {
  return createServiceApp(
    { ...deps, api: IDENTITY_PROVIDER_API, serverUrl: deps.config.issuer },
    {
      routers: [
        discoveryRouter(deps),
        sessionRouter(deps),
        passkeysRouter(deps),
        accountRouter(deps),
        passwordResetRouter(deps),
        authorizeRouter(deps),
        decisionRouter(deps),
        consentRouter(deps),
        tokenRouter(deps),
        userinfoRouter(deps),
        revokeRouter(deps),
        introspectRouter(deps),
        logoutRouter(deps),
        registrationRouter(deps),
        consoleRouter(deps),
        userTokenRouter(deps),
        developerRouter(deps),
        developerTokensRouter(deps),
        authorizationsRouter(deps),
        applicationsRouter(deps),
        apiKeysRouter(deps),
        webhooksRouter(deps),
        actionsRouter(deps),
        proofsRouter(deps),
        // Test data exists only in the sandbox: production has no such paths at all.
        ...(deps.environment.sandbox ? [sandboxRouter(deps)] : []),
        // Kept mail is shown only where it is kept: a local deployment without SMTP_URL.
        ...(deps.outbox && deps.config.mail.transport === 'outbox' ? [outboxRouter(deps.outbox, { anyPeer: deps.config.mail.anyPeer })] : []),
        presetsRouter(deps),
        queriesRouter(deps),
      ],
      errorPages: pageErrors(deps.isOutage, deps.config.provider),
    },
  );
}
