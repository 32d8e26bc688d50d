import type { OperationExample } from '@svc/http';
import { grantTypesFor } from '@svc/schemas';
import { BASE, bearer } from '../example-values.js';

// The production guide's registration examples (docs/identity-provider.md), in page order; spread
// into IDENTITY_PROVIDER_EXAMPLES where they stand in the guide. The set-up lines use the guide's
// $DEVELOPER_SESSION_TOKEN, the demo organization's owner signed in.
const REGISTRATION_METADATA = { client_name: 'Registered app', redirect_uris: ['https://app.example.com/callback'], scope: 'openid identity:read' };
const REGISTERED_ID = 'svc_client_R4nQ8xLm2Vz7Kb3Wt9Hp';
const REGISTERED_URI = `${BASE}/oauth/register/${REGISTERED_ID}`;
const registered = {
  client_id: REGISTERED_ID,
  client_id_issued_at: 1795567943,
  client_name: 'Registered app',
  redirect_uris: ['https://app.example.com/callback'],
  token_endpoint_auth_method: 'client_secret_basic',
  grant_types: grantTypesFor('client_secret_basic'),
  response_types: ['code'],
  scope: 'openid identity:read',
  dpop_bound_access_tokens: false,
  require_pushed_authorization_requests: false,
  tls_client_certificate_bound_access_tokens: false,
  post_logout_redirect_uris: [],
  backchannel_logout_session_required: true,
  id_token_signed_response_alg: 'RS256',
  introspection_signed_response_alg: 'RS256',
};
/** Registers a client: its id in $REGISTERED_CLIENT_ID, its registration access token in $REGISTRATION_ACCESS_TOKEN. */
const register = [
  `export REGISTRATION=$(curl -s -X POST http://localhost:4000/oauth/register -H "Authorization: Bearer $INITIAL_ACCESS_TOKEN" -H 'content-type: application/json' -d '${JSON.stringify(REGISTRATION_METADATA)}')`,
  'export REGISTERED_CLIENT_ID=$(echo "$REGISTRATION" | jq -r .client_id)',
  'export REGISTRATION_ACCESS_TOKEN=$(echo "$REGISTRATION" | jq -r .registration_access_token)',
].join('\n');

export const REGISTRATION_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/developer/initial-access-tokens': [
    {
      summary: 'an initial access token: lets a pipeline register clients for this organization (RFC 7591) until it expires',
      headers: bearer('DEVELOPER_SESSION_TOKEN'),
      body: { expires_in_hours: 24 },
      status: 201,
      response: {
        id: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
        token: 'svciat_Lq3Vx8Nz2Kb7Wm4Hc9Yt1Dj6Gf0Sa5Ue3Io8Kl2Ox7Pr',
        expires_at: '2026-11-26T02:32:23.000Z',
      },
    },
  ],
  'POST /oauth/register': [
    {
      summary: 'register a client with its metadata and the initial access token; the secret and the registration access token are shown once',
      setup: `export INITIAL_ACCESS_TOKEN=$(curl -s -X POST http://localhost:4000/v2/developer/initial-access-tokens -H "Authorization: Bearer $DEVELOPER_SESSION_TOKEN" -H 'content-type: application/json' -d '{}' | jq -r .token)`,
      headers: bearer('INITIAL_ACCESS_TOKEN'),
      body: REGISTRATION_METADATA,
      status: 201,
      response: {
        ...registered,
        client_secret: 'svcs_7Kp2Vx9Lm4Nq8Rz3Wb6Tc1Yh5Dj0Gf4Sa8Ue2Io7Kl3',
        client_secret_expires_at: 0,
        registration_access_token: 'svcrat_Qx4Lm8Vn2Kz7Rb3Wt9Hp1Yc6Dj5Gf0Sa4Ue8Io2Kl7Ox',
        registration_client_uri: REGISTERED_URI,
      },
    },
  ],
  'GET /oauth/register/{client_id}': [
    {
      summary: 'read the client’s registration with its registration access token (RFC 7592)',
      setup: register,
      params: { client_id: '$REGISTERED_CLIENT_ID' },
      headers: bearer('REGISTRATION_ACCESS_TOKEN'),
      status: 200,
      response: { ...registered, registration_client_uri: REGISTERED_URI },
    },
  ],
  'PUT /oauth/register/{client_id}': [
    {
      summary: 'replace its metadata: here, a second redirect URI',
      params: { client_id: '$REGISTERED_CLIENT_ID' },
      headers: bearer('REGISTRATION_ACCESS_TOKEN'),
      body: {
        ...REGISTRATION_METADATA,
        client_id: '$REGISTERED_CLIENT_ID',
        redirect_uris: ['https://app.example.com/callback', 'https://app.example.com/other'],
      },
      status: 200,
      response: {
        ...registered,
        redirect_uris: ['https://app.example.com/callback', 'https://app.example.com/other'],
        registration_client_uri: REGISTERED_URI,
      },
    },
  ],
  'DELETE /oauth/register/{client_id}': [
    {
      summary: 'delete the client: it is revoked and its tokens refused',
      params: { client_id: '$REGISTERED_CLIENT_ID' },
      headers: bearer('REGISTRATION_ACCESS_TOKEN'),
      status: 204,
    },
  ],
};
