import type { OperationExample } from '@svc/http';

// Every value works against `npm start`'s demo data; docs/identity-provider.md says where each
// $VARIABLE comes from. A test runs each of these, as the guide prints them, against the services.
const ALICE = 'alice@demo.example';
const REDIRECT_URI = 'http://localhost:4003/callback';
const bearer = (variable: string) => ({ Authorization: `Bearer $${variable}` });
const client = '$CLIENT_ID:$CLIENT_SECRET';

export const IDENTITY_PROVIDER_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /oauth/authorize': [
    {
      summary: 'start an authorization as an API caller (a browser is sent to the sign-in page instead)',
      query: {
        client_id: '$CLIENT_ID',
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid identity:read kyc:read',
        state: 'af0ifjsldkj',
        code_challenge: '$CODE_CHALLENGE',
        code_challenge_method: 'S256',
      },
      headers: { Accept: 'application/json' },
      status: 200,
    },
  ],
  'GET /consent': [
    { summary: 'the hosted sign-in (or consent) page of a pending authorization', query: { authorization_id: '$AUTHORIZATION_ID' }, status: 200 },
  ],
  'POST /consent/sign-in': [
    {
      summary: 'the sign-in form as a browser posts it (the CSRF cookie and field must match)',
      headers: { Cookie: 'svc_login_csrf=$CSRF_TOKEN' },
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', email: ALICE, password: '$PASSWORD', csrf_token: '$CSRF_TOKEN' },
      status: 303,
    },
  ],
  'POST /consent/sign-out': [
    {
      summary: '"Not you? Sign out" on the consent page',
      headers: { Cookie: 'svc_session=$SESSION_TOKEN' },
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', csrf_token: '$CONSENT_CSRF_TOKEN' },
      status: 303,
    },
  ],
  'POST /auth/session': [{ summary: 'sign the demo user in', body: { email: ALICE, password: '$PASSWORD' }, status: 200 }],
  'DELETE /auth/session': [{ summary: 'sign out', headers: bearer('SESSION_TOKEN'), status: 204 }],
  'GET /oauth/authorize/context': [
    { summary: 'what the consent screen shows', query: { authorization_id: '$AUTHORIZATION_ID' }, headers: bearer('SESSION_TOKEN'), status: 200 },
  ],
  'POST /oauth/authorize/approve': [
    {
      summary: 'approve every requested scope; the answer carries the code',
      headers: bearer('SESSION_TOKEN'),
      body: { authorization_id: '$AUTHORIZATION_ID' },
      status: 200,
    },
  ],
  'POST /oauth/authorize/deny': [
    { summary: 'deny the authorization', headers: bearer('SESSION_TOKEN'), body: { authorization_id: '$AUTHORIZATION_ID' }, status: 200 },
  ],
  'GET /oauth/authorize/result': [
    { summary: 'poll the outcome as the client that owns it', basic: client, query: { authorization_id: '$AUTHORIZATION_ID' }, status: 200 },
  ],
  'POST /oauth/authorize/result': [
    {
      summary: 'the same, with client_secret_post',
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', client_id: '$CLIENT_ID', client_secret: '$CLIENT_SECRET' },
      status: 200,
    },
  ],
  'POST /oauth/token': [
    {
      summary: 'exchange the code, proving PKCE',
      basic: client,
      form: true,
      body: { grant_type: 'authorization_code', code: '$CODE', redirect_uri: REDIRECT_URI, code_verifier: '$CODE_VERIFIER' },
      status: 200,
    },
    {
      summary: 'refresh: the refresh token rotates (keep the new one)',
      basic: client,
      form: true,
      body: { grant_type: 'refresh_token', refresh_token: '$REFRESH_TOKEN' },
      status: 200,
    },
  ],
  'POST /oauth/client/user-token': [
    {
      summary: 'an access token for a user who already authorized this client',
      form: true,
      body: { client_id: '$CLIENT_ID', client_secret: '$CLIENT_SECRET', email: ALICE },
      status: 200,
    },
  ],
  'POST /oauth/revoke': [
    { summary: 'revoke a refresh token and the access tokens it produced', basic: client, form: true, body: { token: '$REFRESH_TOKEN' }, status: 200 },
  ],
  'GET /v2/userinfo': [{ summary: 'who signed in', headers: bearer('ACCESS_TOKEN'), status: 200 }],
  'GET /v2/developer/organization': [{ summary: 'the signed-in developer’s organization', headers: bearer('DEVELOPER_SESSION_TOKEN'), status: 200 }],
  'PUT /v2/developer/organization': [
    { summary: 'rename it (owners only)', headers: bearer('DEVELOPER_SESSION_TOKEN'), body: { name: 'Demo Organization' }, status: 200 },
  ],
  'GET /v2/authorizations': [
    {
      summary: 'the change list: authorizations of this client changed since a time',
      basic: client,
      query: { updated_since: '2026-01-01T00:00:00Z', limit: '20' },
      status: 200,
    },
  ],
  'GET /v2/presets': [{ summary: 'the 42 presets: name, scope, type', status: 200 }],
  'GET /v2/presets/{preset_name}': [{ summary: 'one preset', params: { preset_name: 'age_over_18' }, headers: bearer('ACCESS_TOKEN'), status: 200 }],
  'POST /v2/presets/batch': [
    { summary: 'several presets at once', headers: bearer('ACCESS_TOKEN'), body: { presets: ['age_over_18', 'nationality', 'kyc_passed'] }, status: 200 },
  ],
  'POST /v2/queries/evaluate': [
    {
      summary: 'a yes/no policy over the user’s claims: the answer, not the data',
      headers: bearer('ACCESS_TOKEN'),
      body: {
        query: {
          policy: {
            allOf: [
              { claim: 'age', operator: '>=', value: 18 },
              { claim: 'kyc_passed', operator: '==', value: true },
            ],
          },
        },
      },
      status: 200,
    },
  ],
  'GET /.well-known/openid-configuration': [{ summary: 'OpenID Connect discovery', status: 200 }],
  'GET /.well-known/svc-configuration': [{ summary: 'this service’s own discovery document', status: 200 }],
  'GET /.well-known/oauth-protected-resource/v2': [{ summary: 'RFC 9728 metadata of the data API', status: 200 }],
  'GET /.well-known/jwks.json': [{ summary: 'the token signing keys', status: 200 }],
};
