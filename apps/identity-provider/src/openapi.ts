// The identity provider's OpenAPI document, assembled from each capability's operations (<capability>/openapi.ts);
// the examples stay in one file, openapi-examples.ts, because their order is the guide's page order.
import { type ApiSpec, type OperationExample, withExamples } from '@svc/http';
import { AUTHORIZE_OPERATIONS } from './authorize/openapi.js';
import { CONSENT_OPERATIONS } from './consent/openapi.js';
import { SESSION_OPERATIONS } from './sessions/openapi.js';
import { PASSKEY_OPERATIONS } from './passkeys/openapi.js';
import { ACCOUNT_OPERATIONS } from './account/openapi.js';
import { PASSWORD_RESET_OPERATIONS } from './password-reset/openapi.js';
import { TOKEN_OPERATIONS } from './tokens/openapi.js';
import { REVOCATION_OPERATIONS } from './revocation/openapi.js';
import { INTROSPECTION_OPERATIONS } from './introspection/openapi.js';
import { LOGOUT_OPERATIONS } from './logout/openapi.js';
import { DATA_ACCESS_OPERATIONS } from './data-access/openapi.js';
import { DEVELOPER_OPERATIONS } from './developer/openapi.js';
import { MAIL_OPERATIONS } from './mail/openapi.js';
import { APPLICATION_OPERATIONS } from './applications/openapi.js';
import { WEBHOOK_OPERATIONS } from './webhooks/openapi.js';
import { ACTION_OPERATIONS } from './actions/openapi.js';
import { DISCOVERY_OPERATIONS } from './discovery/openapi.js';
import { SANDBOX_OPERATIONS } from './sandbox/openapi.js';
import { REGISTRATION_OPERATIONS } from './registration/openapi.js';
import { IDENTITY_PROVIDER_EXAMPLES } from './openapi-examples.js';
import { SANDBOX_EXAMPLES } from './sandbox/openapi-examples.js';

const OPERATIONS: ApiSpec['operations'] = [
  ...AUTHORIZE_OPERATIONS,
  ...CONSENT_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...PASSKEY_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...PASSWORD_RESET_OPERATIONS,
  ...TOKEN_OPERATIONS,
  ...REVOCATION_OPERATIONS,
  ...INTROSPECTION_OPERATIONS,
  ...LOGOUT_OPERATIONS,
  ...DATA_ACCESS_OPERATIONS,
  ...REGISTRATION_OPERATIONS,
  ...DEVELOPER_OPERATIONS,
  ...MAIL_OPERATIONS,
  ...APPLICATION_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...ACTION_OPERATIONS,
  ...SANDBOX_OPERATIONS,
  ...DISCOVERY_OPERATIONS,
];

/** Each guide's examples, run against its own environment: docs/identity-provider.md production's, docs/sandbox.md the sandbox's. */
export const GUIDE_EXAMPLES = { 'identity-provider': IDENTITY_PROVIDER_EXAMPLES, sandbox: SANDBOX_EXAMPLES } as const;

/** The operations a guide shows, each with that guide's examples only. */
export function guideOperations(guide: keyof typeof GUIDE_EXAMPLES): ApiSpec['operations'] {
  return withExamples(OPERATIONS, GUIDE_EXAMPLES[guide]).filter((op) => op.examples?.length);
}

/** Both guides' examples of one operation, side by side in the served document. */
function allExamples() {
  const merged: Record<string, OperationExample[]> = {};
  for (const examples of Object.values(GUIDE_EXAMPLES)) for (const [key, list] of Object.entries(examples)) merged[key] = [...(merged[key] ?? []), ...list];
  return merged;
}

/** The identity provider's API contract, as served. */
export const IDENTITY_PROVIDER_API: ApiSpec = {
  title: 'Identity provider',
  description:
    'OAuth 2.0 authorization code with PKCE (S256), hosted sign-in and consent, tokens, revocation, user info, presets, queries, the change list, discovery, developer self-service, webhooks, actions counted once per person and, in the sandbox environment, test data. Errors of the OAuth endpoints follow RFC 6749; data endpoints answer the preset error body with codes E4003, E4004, E4010, E4011, E4041, E4042 and E4044.',
  operations: withExamples(OPERATIONS, allExamples()),
};
