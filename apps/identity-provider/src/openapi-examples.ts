import type { OperationExample } from '@svc/http';
import { DATA_ACCESS_EXAMPLES } from './data-access/openapi-examples.js';
import { DISCOVERY_EXAMPLES } from './discovery/openapi-examples.js';
import { bearer, CLIENT, REDIRECT_URI } from './example-values.js';
import { TOKEN_EXAMPLES } from './tokens/openapi-examples.js';
import { ACTION_EXAMPLES } from './actions/openapi-examples.js';
import { REGISTRATION_EXAMPLES } from './registration/openapi-examples.js';
import { PASSKEY_EXAMPLES } from './passkeys/openapi-examples.js';
import { ACCOUNT_EXAMPLES } from './account/openapi-examples.js';
import { PASSWORD_RESET_EXAMPLES } from './password-reset/openapi-examples.js';

// Every value works against `npm start`'s demo data; docs/identity-provider.md says where each
// $VARIABLE comes from, and defines the shell functions the set-up lines call (new_authorization,
// new_code, new_tokens, sign_in). The guide prints these in this order and a reader runs them top
// to bottom in one shell (tests/platform/test/documented-examples.test.ts does exactly that): an
// example that needs something the ones above it spent gets it fresh in its `setup`, and whatever
// spends or ends something the others need (a refresh token, a session) comes last. A capability
// with many examples keeps them beside it (registration/, data-access/, discovery/), spread here
// where they stand in the page.
const ALICE = 'alice@demo.example';
// One authorization of the demo client, as the change list shows it.
const changedAuthorization = {
  authorization_id: 'd323c8af-84b2-4207-aebf-9b7fc374b410',
  organization_id: '6c1631d1-159a-4c67-a634-e1d694df083d',
  app_scoped_user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
  updated_at: '2026-11-25T02:32:23.913Z',
  status: 'active',
};

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
      response: {
        authorization_id: '1158af3e-475d-4d9c-974f-10a383339215',
        status: 'pending_admin',
        consent_url: 'http://localhost:4000/consent?authorization_id=1158af3e-475d-4d9c-974f-10a383339215',
        expires_at: '2026-11-25T02:42:25.470Z',
      },
    },
    {
      summary: 'start a pushed request (below): the browser carries only client_id and the request_uri',
      setup: `export REQUEST_URI=$(curl -s -X POST http://localhost:4000/oauth/par -u "$CLIENT_ID:$CLIENT_SECRET" --data-urlencode redirect_uri=${REDIRECT_URI} -d response_type=code --data-urlencode 'scope=openid identity:read' -d code_challenge=$CODE_CHALLENGE -d code_challenge_method=S256 | jq -r .request_uri)`,
      query: { client_id: '$CLIENT_ID', request_uri: '$REQUEST_URI' },
      headers: { Accept: 'application/json' },
      status: 200,
      response: {
        authorization_id: '5b2e8f1c-7d3a-4c6e-9f0b-2a1d4e6c8b9f',
        status: 'pending_admin',
        consent_url: 'http://localhost:4000/consent?authorization_id=5b2e8f1c-7d3a-4c6e-9f0b-2a1d4e6c8b9f',
        expires_at: '2026-11-25T02:42:26.102Z',
      },
    },
  ],
  'POST /oauth/par': [
    {
      summary: 'push the authorization request first (RFC 9126): checked here, answered here, good once for 60 s',
      basic: CLIENT,
      form: true,
      body: {
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid identity:read kyc:read',
        state: 'af0ifjsldkj',
        code_challenge: '$CODE_CHALLENGE',
        code_challenge_method: 'S256',
      },
      status: 201,
      response: { request_uri: 'urn:ietf:params:oauth:request_uri:Vb8Kq2Lx7Nm3Rz9Wc4Tp1Yh6Dj0Gf5Sa2Ue8Io3Kl7Ox4', expires_in: 60 },
    },
  ],
  'GET /consent': [
    {
      summary: 'the hosted sign-in (or consent) page of a pending authorization',
      query: { authorization_id: '$AUTHORIZATION_ID' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Sign in</title>\n…\n<h1>Sign in to continue to Demo Confidential App</h1>\n<form method="post" action="/consent/sign-in">\n…\n</html>\n',
    },
  ],
  'POST /consent/sign-in': [
    {
      summary: 'the sign-in form as a browser posts it (from its own page, so Origin is the service; the CSRF cookie and field must match)',
      headers: { Origin: 'http://localhost:4000', Cookie: 'svc_login_csrf=$CSRF_TOKEN' },
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', email: ALICE, password: '$PASSWORD', csrf_token: '$CSRF_TOKEN' },
      status: 303,
    },
  ],
  'POST /auth/session': [
    {
      summary: 'sign the demo user in',
      body: { email: ALICE, password: '$PASSWORD' },
      status: 200,
      response: { session_token: 'svcsess_6xEyiokgB3FyIWJqMPkNqvPqJEf5mfMaOANbPZS9yPJ', expires_in: 43200 },
    },
  ],
  ...PASSKEY_EXAMPLES,
  ...ACCOUNT_EXAMPLES,
  'GET /oauth/authorize/context': [
    {
      summary: 'what the consent screen shows',
      query: { authorization_id: '$AUTHORIZATION_ID' },
      headers: bearer('SESSION_TOKEN'),
      status: 200,
      response: {
        authorization_id: 'b3b41a34-4875-4442-885e-ccdbe0536508',
        client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
        user_id: '0d28f5cf-bc0f-43bc-88eb-a20e2bd4f0bc',
        app_scoped_user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        status: 'pending_admin',
        redirect_uri: 'http://localhost:4003/callback',
        state: 'af0ifjsldkj',
        requested_scopes: ['openid', 'identity:read', 'kyc:read'],
        application: {
          client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
          name: 'Demo Confidential App',
          organization_id: '6c1631d1-159a-4c67-a634-e1d694df083d',
          organization_name: 'Demo Organization',
          status: 'active',
          redirect_uris: ['http://localhost:4003/callback'],
          created_at: '2026-11-25T02:32:00.985Z',
          updated_at: '2026-11-25T02:32:00.985Z',
        },
        scopes: [
          {
            id: 'openid',
            display_name: 'Sign you in',
            description: 'Confirm who you are to this app with a private identifier, without sharing other details.',
            category: 'profile',
            is_default: true,
          },
          {
            id: 'identity:read',
            display_name: 'Basic identity',
            description: 'Whether you are a verified unique human, your age bracket, nationality and country of residence.',
            category: 'identity',
          },
          {
            id: 'kyc:read',
            display_name: 'Identity check results',
            description: 'Whether you passed identity checks (KYC), when, and your document’s country and expiry.',
            category: 'kyc',
          },
        ],
        metadata: { created_at: '2026-11-25T02:32:24.505Z', updated_at: '2026-11-25T02:32:25.325Z' },
        policy: { requires_palm_verification: false, preset_cache_ttl_seconds: 3600 },
      },
    },
  ],
  'POST /oauth/authorize/approve': [
    {
      summary: 'approve every requested scope; the answer carries the code',
      headers: bearer('SESSION_TOKEN'),
      body: { authorization_id: '$AUTHORIZATION_ID' },
      status: 200,
      response: {
        authorization_id: 'b3b41a34-4875-4442-885e-ccdbe0536508',
        status: 'approved',
        code: 'svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6',
        code_expires_at: '2026-11-25T02:37:27.267Z',
        scopes: ['identity:read', 'kyc:read', 'openid'],
        granted_scopes: ['identity:read', 'kyc:read', 'openid'],
        app_scoped_user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        organization_id: '6c1631d1-159a-4c67-a634-e1d694df083d',
        state: 'af0ifjsldkj',
        redirect_uri: 'http://localhost:4003/callback',
        client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
        redirect_to:
          'http://localhost:4003/callback?code=svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A4000',
      },
    },
  ],
  'GET /oauth/authorize/result': [
    {
      summary: 'poll the outcome as the client that owns it',
      basic: CLIENT,
      query: { authorization_id: '$AUTHORIZATION_ID' },
      status: 200,
      response: {
        authorization_id: 'b3b41a34-4875-4442-885e-ccdbe0536508',
        status: 'approved',
        redirect_uri: 'http://localhost:4003/callback',
        state: 'af0ifjsldkj',
        code: 'svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6',
        redirect_to:
          'http://localhost:4003/callback?code=svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A4000',
      },
    },
  ],
  'POST /oauth/authorize/result': [
    {
      summary: 'the same, with client_secret_post',
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', client_id: '$CLIENT_ID', client_secret: '$CLIENT_SECRET' },
      status: 200,
      response: {
        authorization_id: 'b3b41a34-4875-4442-885e-ccdbe0536508',
        status: 'approved',
        redirect_uri: 'http://localhost:4003/callback',
        state: 'af0ifjsldkj',
        code: 'svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6',
        redirect_to:
          'http://localhost:4003/callback?code=svccode_VMtfXM0NIsq2QWJtY8WObZuVwJP4ree7xtNC7WVqCx6&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A4000',
      },
    },
  ],
  'POST /oauth/authorize/deny': [
    {
      summary: 'deny an authorization',
      setup: 'new_authorization   # a pending authorization of its own: the one above is approved',
      headers: bearer('SESSION_TOKEN'),
      body: { authorization_id: '$AUTHORIZATION_ID' },
      status: 200,
      response: {
        authorization_id: '5440a875-a44a-43d1-8ea1-75dc1fd4d836',
        status: 'denied',
        redirect_uri: 'http://localhost:4003/callback',
        redirect_to:
          'http://localhost:4003/callback?error=access_denied&error_description=The+user+denied+the+request&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A4000',
      },
    },
  ],
  'POST /oauth/client/user-token': [
    {
      summary: 'an access token for a user who already authorized this client',
      form: true,
      body: { client_id: '$CLIENT_ID', client_secret: '$CLIENT_SECRET', email: ALICE },
      status: 200,
      response: {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
        token_type: 'Bearer',
        expires_in: 900,
        issued_at: '2026-11-25T02:32:28.107Z',
        user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
        authorization_id: 'b3b41a34-4875-4442-885e-ccdbe0536508',
        scopes: ['identity:read', 'kyc:read', 'openid'],
      },
    },
  ],
  'GET /v2/userinfo': [
    {
      summary: 'who signed in',
      headers: bearer('ACCESS_TOKEN'),
      status: 200,
      response: {
        sub: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        iss: 'http://localhost:4000',
        aud: 'http://localhost:4000/v2',
        authorization_id: 'd323c8af-84b2-4207-aebf-9b7fc374b410',
        scopes: ['identity:read', 'kyc:read', 'openid'],
        updated_at: '2026-11-25T02:32:00.309Z',
        service_id: 'b5252533-1d54-4436-b1c1-4a0b151b68b5',
      },
    },
  ],
  'GET /v2/developer/organization': [
    {
      summary: 'the signed-in developer’s organization',
      headers: bearer('DEVELOPER_SESSION_TOKEN'),
      status: 200,
      response: { id: '6c1631d1-159a-4c67-a634-e1d694df083d', name: 'Demo Organization', ownerId: '25f77c89-efcf-4466-8ea1-201522cca608', isOwner: true },
    },
  ],
  'PUT /v2/developer/organization': [
    {
      summary: 'rename it (owners only)',
      headers: bearer('DEVELOPER_SESSION_TOKEN'),
      body: { name: 'Demo Organization' },
      status: 200,
      response: { id: '6c1631d1-159a-4c67-a634-e1d694df083d', name: 'Demo Organization', ownerId: '25f77c89-efcf-4466-8ea1-201522cca608', isOwner: true },
    },
  ],
  'GET /v2/authorizations': [
    {
      summary: 'the change list: authorizations of this client changed since a time',
      basic: CLIENT,
      query: { updated_since: '2026-01-01T00:00:00Z', limit: '20' },
      status: 200,
      response: {
        items: [changedAuthorization],
        last_modified: '2026-11-25T02:32:27.269Z',
        has_more: false,
      },
    },
    {
      summary: 'the same with the client’s own token (client_credentials, scope authorizations:read), as a batch job holds it',
      setup:
        'export CLIENT_TOKEN=$(curl -s -X POST http://localhost:4000/oauth/token -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials | jq -r .access_token)',
      headers: bearer('CLIENT_TOKEN'),
      query: { status: 'active', limit: '1' },
      status: 200,
      response: {
        items: [changedAuthorization],
        last_modified: '2026-11-25T02:32:23.913Z',
        has_more: true,
      },
    },
  ],
  // One person, one vote (actions/openapi-examples.ts): registered, proved, checked, deleted.
  ...ACTION_EXAMPLES,
  // Registering clients (RFC 7591/7592), with an initial access token the demo developer makes.
  ...REGISTRATION_EXAMPLES,
  // Presets and queries (data-access/openapi-examples.ts), then discovery.
  ...DATA_ACCESS_EXAMPLES,
  ...DISCOVERY_EXAMPLES,

  // The token endpoint, introspection and revocation (tokens/openapi-examples.ts).
  ...TOKEN_EXAMPLES,
  'GET /oauth/logout': [
    {
      summary:
        'an app sends the person here to sign out (with id_token_hint and a registered post_logout_redirect_uri they go back with state; with nobody signed in, a page says so)',
      query: { client_id: '$CLIENT_ID', ui_locales: 'en' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Signed out</title>\n…\n<p class="provider">Your account · <span>localhost:4000</span></p>\n<h1>Signed out</h1>\n<p>You are signed out. You can close this page.</p>\n…\n</html>\n',
    },
  ],
  'POST /oauth/logout': [
    {
      summary: 'the same as a form post (the confirmation page posts here too, with its csrf_token)',
      form: true,
      body: { client_id: '$CLIENT_ID' },
      status: 200,
      response:
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Signed out</title>\n…\n<p class="provider">Your account · <span>localhost:4000</span></p>\n<h1>Signed out</h1>\n<p>You are signed out. You can close this page.</p>\n…\n</html>\n',
    },
  ],
  'POST /consent/sign-out': [
    {
      summary: '"Not you? Sign out" on the consent page (it ends $SESSION_TOKEN)',
      setup: 'new_authorization   # it is asked on the page of a pending request',
      headers: { Origin: 'http://localhost:4000', Cookie: 'svc_session=$SESSION_TOKEN' },
      form: true,
      body: { authorization_id: '$AUTHORIZATION_ID', csrf_token: '$CONSENT_CSRF_TOKEN' },
      status: 303,
    },
  ],
  'DELETE /auth/session': [
    {
      summary: 'sign out',
      setup: 'export SESSION_TOKEN=$(sign_in alice@demo.example)   # a session to end: the sign-out above ended the last one',
      headers: bearer('SESSION_TOKEN'),
      status: 204,
    },
    {
      summary: 'sign out again with the same token: that session has ended',
      headers: bearer('SESSION_TOKEN'),
      status: 401,
      response: {
        error: 'login_required',
        error_description: 'Sign in first: a session cookie or Authorization: Bearer <session_token> is required',
        request_id: '3c9d2f7e-8a41-4b6c-9e05-7d1f2a8b4c63',
      },
    },
  ],
  // Last: a reset sets the demo password again, so every example above works before and after it.
  ...PASSWORD_RESET_EXAMPLES,
};
