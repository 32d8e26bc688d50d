import type { OperationExample } from '@svc/http';
import { TEAM_EXAMPLES } from '../developer/openapi-examples.js';
import { EXAMPLE_NOW as NOW, SANDBOX_ORG_ID as ORG_ID, SANDBOX_USER_ID as USER_ID } from '../example-values.js';
import { WEBHOOK_EXAMPLES } from '../webhooks/openapi-examples.js';

// The sandbox guide's examples (docs/sandbox.md), against the sandbox `npm start` runs on port
// 4005: a developer signs up, makes a personal access token, registers an application, makes test
// users, authorizes without a browser, and produces every preset error on purpose. The guide's
// first block defines the variables and the shell functions the set-up lines call (sign_in, sbx,
// new_app, new_test_user, new_grant); a reader runs the examples top to bottom in one shell, and
// tests/platform/test/documented-examples.test.ts does exactly that against a sandbox.
const CALLBACK = 'http://localhost:3000/callback';
const token = { Authorization: 'Bearer $TOKEN' };
const CLIENT_ID = 'sbx_svc_client_7Qm2XbV9kLpR4tWz8NcY';
const AUTHORIZATION_ID = '9d8c7b6a-5f4e-4d3c-8b2a-190817263544';
const SIGNUP_LINK = 'http://localhost:4005/console/signup/confirm?token=sbx_svcsgn_6Hd2Kq9Lm4Wx7Zp1Rt8Vb3Nc5Yf0Js2Ga6Ue9Io4Kl7';

const application = {
  client_id: CLIENT_ID,
  name: 'My app',
  type: 'confidential',
  token_endpoint_auth_method: 'client_secret_basic',
  redirect_uris: [CALLBACK],
  scopes: ['openid', 'identity:read', 'kyc:read'],
  require_dpop: false,
  requires_palm_verification: false,
  preset_cache_ttl_seconds: 3600,
  access_token_ttl_seconds: 900,
  status: 'active',
  created_at: NOW,
};
const apiKey = {
  id: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
  name: 'Wallet checks (staging)',
  prefix: 'Xk3pQ9tV',
  permissions: ['wallet:verify'],
  hourly_limit: 1000,
  burst_limit: 10,
  status: 'active',
  last_used_at: null,
  requests_this_hour: 0,
  created_at: NOW,
  disabled_at: null,
};
const testUser = {
  user_id: USER_ID,
  email: 'test-k2j4h6g8f0d2@sandbox.invalid',
  wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
  palm_verified: true,
  presets: { palm_verified: 'valid', date_of_birth: 'valid', nationality: 'valid', kyc_passed: 'pending' },
  created_at: NOW,
} as const;
/** A preset read refused with `code`: the spec's preset error body. */
const presetError = (error: string, code: string, description: string, extra: Record<string, unknown> = {}) => ({
  error,
  error_code: code,
  error_description: description,
  ...extra,
});

export const SANDBOX_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/developer/signup': [
    {
      summary: 'sign up: nothing is made yet, a link to confirm is mailed (under npm start, to the local outbox)',
      body: { email: '$NEW_EMAIL', password: '$PASSWORD', organization_name: 'Acme (sandbox)' },
      status: 202,
      response: { status: 'verification_sent', expires_in: 1800 },
    },
  ],
  'GET /dev/outbox.json': [
    {
      summary: 'the mail kept for that address, with its link (a local deployment without SMTP_URL only; the page /dev/outbox shows the same)',
      query: { to: '$NEW_EMAIL' },
      status: 200,
      response: {
        items: [
          {
            id: '2b7e4c1d-9a3f-4e8b-b6d5-0c1f2e3d4a5b',
            to: 'dev-7b2d4e6a@example.com',
            subject: '[Sandbox] Confirm your developer account',
            text: `Someone, we hope you, asked to open a developer account with this address at the sandbox at localhost:4005.\n\nTo finish, open this link within 30 minutes and enter the password chosen at sign-up:\n\n${SIGNUP_LINK}\n\nIf it was not you, ignore this mail: no account is made, and the link stops working by itself.`,
            links: [SIGNUP_LINK],
            created_at: NOW,
          },
        ],
      },
    },
  ],
  'POST /v2/developer/signup/confirm': [
    {
      summary: 'follow the link: its token, and the password chosen at sign-up, make the account and its organization',
      setup: `export SIGNUP_TOKEN=$(curl -s "http://localhost:4005/dev/outbox.json?to=$NEW_EMAIL" | jq -r '.items[0].links[0] | split("token=")[1]')`,
      body: { token: '$SIGNUP_TOKEN', password: '$PASSWORD' },
      status: 201,
      response: { user_id: USER_ID, organization_id: ORG_ID },
    },
  ],
  'POST /v2/developer/personal-access-tokens': [
    {
      summary: 'a personal access token for scripts and CI, signed in (shown once; it expires, in 90 days unless asked otherwise)',
      headers: { Authorization: 'Bearer $SESSION_TOKEN' },
      body: { name: 'CI', expires_in_days: 90 },
      status: 201,
      response: {
        id: '6e5d4c3b-2a19-4f08-8e7d-6c5b4a392817',
        name: 'CI',
        token: 'sbx_svcpat_Vq8Lm3Nx7Rt2Kp9Wz4Yb6Hc1Jd5Fg0Ss8Ua3Ee7Ii2Oo',
        expires_at: '2027-02-23T10:00:00.000Z',
      },
    },
  ],
  'GET /v2/developer/organization': [
    {
      summary: 'your organization, with the personal access token',
      headers: token,
      status: 200,
      response: { id: ORG_ID, name: 'Acme (sandbox)', ownerId: USER_ID, isOwner: true },
    },
  ],
  'POST /v2/developer/applications': [
    {
      summary: 'register a confidential application (its secret is shown this once)',
      headers: token,
      body: { name: 'My app', redirect_uris: [CALLBACK], scopes: ['openid', 'identity:read', 'kyc:read'], type: 'confidential' },
      status: 201,
      response: { ...application, client_secret: 'sbx_svcs_8Hq2Wm5Zx9Lk3Vn7Bc1Rt4Yp6Dj0Gf2Sa5Ue8Io3Kl7' },
    },
  ],
  'GET /v2/developer/applications': [{ summary: 'your applications', headers: token, status: 200, response: { items: [application] } }],
  'GET /v2/developer/applications/{client_id}': [
    { summary: 'one application', setup: 'new_app', params: { client_id: '$CLIENT_ID' }, headers: token, status: 200, response: application },
  ],
  'PATCH /v2/developer/applications/{client_id}': [
    {
      summary: 'add a redirect URI (what is sent changes, the rest stays)',
      params: { client_id: '$CLIENT_ID' },
      headers: token,
      body: { redirect_uris: [CALLBACK, 'https://app.example.com/callback'] },
      status: 200,
      response: { ...application, redirect_uris: [CALLBACK, 'https://app.example.com/callback'] },
    },
  ],
  'POST /v2/developer/applications/{client_id}/rotate-secret': [
    {
      summary: 'a new client secret, shown once; the old one stops working',
      params: { client_id: '$CLIENT_ID' },
      headers: token,
      status: 200,
      response: { client_id: CLIENT_ID, client_secret: 'sbx_svcs_2Lp7Vx4Nq9Rz1Kb6Wm3Hc8Yt5Dj0Gf7Sa2Ue4Io9Kl1' },
    },
  ],
  'POST /v2/developer/api-keys': [
    {
      summary: 'an API key for wallet verify with its limits (shown once)',
      headers: token,
      body: { name: 'Wallet checks (staging)', permissions: ['wallet:verify'], hourly_limit: 1000, burst_limit: 10 },
      status: 201,
      response: { ...apiKey, key: 'sbx_svck_Xk3pQ9tV_4Rb8Nm2Zq6Lx1Vt9Kw3Hy7Dc5Jf0Gs4Ua8Ep2Io6Ku1Ml3Ox5Pi9Wn7e3c1a9' },
    },
  ],
  'GET /v2/developer/api-keys': [{ summary: 'your API keys (never the keys themselves)', headers: token, status: 200, response: { items: [apiKey] } }],
  'POST /v2/developer/api-keys/{id}/disable': [
    {
      summary: 'disable a key at once',
      setup: `export API_KEY_ID=$(sbx POST /v2/developer/api-keys '{"permissions": ["wallet:verify"]}' | jq -r .id)`,
      params: { id: '$API_KEY_ID' },
      headers: token,
      status: 200,
      response: { ...apiKey, status: 'disabled', disabled_at: NOW },
    },
  ],
  ...WEBHOOK_EXAMPLES,
  ...TEAM_EXAMPLES,
  'POST /v2/sandbox/users': [
    {
      summary: 'a test user: palm-verified, born in 1990, German, with a KYC check still pending',
      headers: token,
      body: {
        wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
        palm_verified: true,
        presets: { date_of_birth: '1990-04-12', nationality: 'DE', kyc_passed: true },
        statuses: { kyc_passed: 'pending' },
      },
      status: 201,
      response: { ...testUser, password: 'test-R4nd0mPa55w0rdX1yZ' },
    },
    {
      summary: 'a derived preset is given through its parent field: age_over_18 is refused, naming date_of_birth',
      headers: token,
      body: { presets: { age_over_18: true } },
      status: 400,
      response: {
        error: 'invalid_request',
        error_description: 'body.presets.age_over_18: is derived from date_of_birth: give date_of_birth instead',
        details: [{ field: 'body.presets.age_over_18', message: 'is derived from date_of_birth: give date_of_birth instead' }],
        request_id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
      },
    },
  ],
  'GET /v2/sandbox/users': [{ summary: 'your test users', headers: token, status: 200, response: { items: [testUser] } }],
  'POST /v2/sandbox/authorizations': [
    {
      summary: 'a test user authorizes your application without a browser: exchange the code at /oauth/token as usual',
      setup: 'new_app && new_test_user',
      headers: token,
      body: {
        client_id: '$CLIENT_ID',
        user_id: '$TEST_USER_ID',
        scope: 'openid identity:read kyc:read',
        redirect_uri: CALLBACK,
        code_challenge: '$CODE_CHALLENGE',
        state: 'af0ifjsldkj',
      },
      status: 201,
      response: {
        authorization_id: AUTHORIZATION_ID,
        status: 'approved',
        code: 'sbx_svccode_4Hx9Lm2Qv7Rk3Nz8Wb1Tc6Yp5Dj0Gf9Sa4Ue7Io2Kl8Ox3',
        code_expires_at: '2026-11-25T10:05:00.000Z',
        scopes: ['identity:read', 'kyc:read', 'openid'],
        granted_scopes: ['identity:read', 'kyc:read', 'openid'],
        app_scoped_user_id: '7c6b5a49-3827-4165-9504-f3e2d1c0b9a8',
        organization_id: ORG_ID,
        state: 'af0ifjsldkj',
        redirect_uri: CALLBACK,
        client_id: CLIENT_ID,
        redirect_to: `${CALLBACK}?code=sbx_svccode_4Hx9Lm2Qv7Rk3Nz8Wb1Tc6Yp5Dj0Gf9Sa4Ue7Io2Kl8Ox3&state=af0ifjsldkj&iss=http%3A%2F%2Flocalhost%3A4005`,
      },
    },
  ],
  // Every preset error, on purpose: each set-up line makes the state that produces it.
  'GET /v2/presets/{preset_name}': [
    {
      summary: 'a preset of a fresh grant (new_grant: a test user authorizes your app; its tokens in $ACCESS_TOKEN)',
      setup: 'new_app && new_test_user && new_grant',
      params: { preset_name: 'age_over_18' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 200,
      response: {
        preset: 'age_over_18',
        value: true,
        status: 'valid',
        expires_at: '2026-11-25T11:00:00.000Z',
        verified_at: NOW,
        evidence: { source: 'sandbox', credential_id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a', derived_from: 'date_of_birth' },
      },
    },
    {
      summary: 'E4003: a preset whose scope the token lacks (granted identity:read only, kyc_passed needs kyc:read)',
      setup: "new_grant 'openid identity:read'",
      params: { preset_name: 'kyc_passed' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 403,
      response: presetError('insufficient_scope', 'E4003', 'Reading kyc_passed needs the kyc:read scope, which this token does not carry', {
        context: { preset: 'kyc_passed', required_scope: 'kyc:read' },
      }),
    },
    {
      summary: 'E4004: a preset whose verification is pending (a test user made with statuses: {kyc_passed: "pending"})',
      setup: `new_test_user '{"kyc_passed": true}' '{"kyc_passed": "pending"}' && new_grant`,
      params: { preset_name: 'kyc_passed' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 409,
      response: presetError('verification_unavailable', 'E4004', 'kyc_passed is unavailable: the verification behind it is still pending', {
        error_subcode: 'verification_pending',
        context: { preset: 'kyc_passed' },
      }),
    },
    {
      summary: 'E4010: the data window has ended (POST /v2/sandbox/authorizations/{authorization_id}/expire-data)',
      setup: 'new_test_user && new_grant && sbx POST "/v2/sandbox/authorizations/$AUTHORIZATION_ID/expire-data" > /dev/null',
      params: { preset_name: 'age_over_18' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 401,
      response: presetError('reauthorization_required', 'E4010', 'The data window of this authorization is over; send the user through authorization again', {
        error_subcode: 'data_window_over',
        context: { authorization_id: AUTHORIZATION_ID, window_ended_at: NOW },
      }),
    },
    {
      summary: 'E4041: an expired access token (POST /v2/sandbox/authorizations/{authorization_id}/expired-access-token)',
      setup: 'new_grant && export ACCESS_TOKEN=$(sbx POST "/v2/sandbox/authorizations/$AUTHORIZATION_ID/expired-access-token" | jq -r .access_token)',
      params: { preset_name: 'age_over_18' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 401,
      response: presetError('token_expired', 'E4041', 'The access token has expired', { error_subcode: 'token_expired' }),
    },
    {
      summary: 'E4042: a revoked access token (revoked at /oauth/revoke)',
      setup:
        'new_grant && curl -s -X POST http://localhost:4005/oauth/revoke -u "$CLIENT_ID:$CLIENT_SECRET" --data-urlencode "token=$ACCESS_TOKEN" > /dev/null',
      params: { preset_name: 'age_over_18' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 401,
      response: presetError('invalid_token', 'E4042', 'The access token has been revoked', { error_subcode: 'token_revoked' }),
    },
    {
      summary: 'E4044: a preset that does not exist',
      setup: 'new_grant',
      params: { preset_name: 'shoe_size' },
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      status: 404,
      response: presetError('preset_not_found', 'E4044', 'There is no preset named "shoe_size"', { context: { preset: 'shoe_size' } }),
    },
  ],
  'DELETE /v2/sandbox/actions/{action}/proofs': [
    {
      summary: 'forget the proofs of one of your actions (one person, one free trial), so that the same test users can prove it again',
      setup: `sbx POST /v2/developer/actions '{"action": "free-trial", "requires_palm_verification": false}' > /dev/null`,
      params: { action: 'free-trial' },
      headers: token,
      status: 204,
    },
  ],
  'POST /v2/sandbox/authorizations/{authorization_id}/expire-data': [
    {
      summary: 'end a data window now: the next data read answers E4010',
      setup: 'new_grant',
      params: { authorization_id: '$AUTHORIZATION_ID' },
      headers: token,
      status: 200,
      response: { authorization_id: AUTHORIZATION_ID, data_window_ended_at: NOW },
    },
  ],
  'POST /v2/sandbox/authorizations/{authorization_id}/expired-access-token': [
    {
      summary: 'an access token that expired an hour ago: any data read answers E4041',
      setup: 'new_grant',
      params: { authorization_id: '$AUTHORIZATION_ID' },
      headers: token,
      status: 200,
      response: {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6InNieC0xIiwidHlwIjoiYXQrand0In0.eyJpc3MiOiJodHRwOi8vbG9jYWxob3N0OjQwMDUifQ.c2lnbmF0dXJl',
        token_type: 'Bearer',
        expired_at: '2026-11-25T09:00:00.000Z',
      },
    },
  ],
  'DELETE /v2/sandbox/users/{user_id}': [
    {
      summary: 'delete a test user with its data and authorizations (its tokens stop working)',
      setup: 'new_test_user',
      params: { user_id: '$TEST_USER_ID' },
      headers: token,
      status: 204,
    },
  ],
  'DELETE /v2/developer/applications/{client_id}': [
    {
      summary: 'revoke an application: its tokens are refused from now on',
      setup: 'new_app',
      params: { client_id: '$CLIENT_ID' },
      headers: token,
      status: 200,
      response: { ...application, status: 'revoked' },
    },
  ],
};
