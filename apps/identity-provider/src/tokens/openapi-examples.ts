import type { OperationExample } from '@svc/http';
import { CLIENT, REDIRECT_URI } from '../example-values.js';

// The production guide's examples of the token endpoint, introspection and revocation, in page
// order; spread into IDENTITY_PROVIDER_EXAMPLES where they stand in the guide. Each spends what
// it needs fresh (`new_code`, `new_tokens` in its setup), and revocation, which ends a grant, comes
// after the rest.

export const TOKEN_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /oauth/token': [
    {
      summary: 'exchange the code, proving PKCE',
      setup: 'new_code   # a code of its own: each is spent once, and replaying one revokes what it gave',
      basic: CLIENT,
      form: true,
      body: { grant_type: 'authorization_code', code: '$CODE', redirect_uri: REDIRECT_URI, code_verifier: '$CODE_VERIFIER' },
      status: 200,
      response: {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'identity:read kyc:read openid',
        granted_scopes: ['identity:read', 'kyc:read', 'openid'],
        authorization_id: '167daed9-3062-4c9b-826c-78057c58cd6b',
        app_scoped_user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        issued_at: '2026-11-25T02:32:29.972Z',
        refresh_token: 'svcrt_yH5K8bcDZPgTcwwjFAVMvQ4N9oO5poAXAbxf9k4RDuv',
        refresh_token_expires_in: 2592000,
        refresh_issued_at: '2026-11-25T02:32:29.972Z',
        id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
      },
    },
    {
      summary:
        'refresh: the refresh token rotates (keep the new one: the old one answers the same pair for 10 s, for a retry whose answer was lost; after that, using it ends the grant)',
      setup: 'new_tokens   # a refresh token of its own: each is spent once',
      basic: CLIENT,
      form: true,
      body: { grant_type: 'refresh_token', refresh_token: '$REFRESH_TOKEN' },
      status: 200,
      response: {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'identity:read kyc:read openid',
        granted_scopes: ['identity:read', 'kyc:read', 'openid'],
        authorization_id: 'd323c8af-84b2-4207-aebf-9b7fc374b410',
        app_scoped_user_id: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        issued_at: '2026-11-25T02:32:30.159Z',
        refresh_token: 'svcrt_JOJ2QR69TU1YOdLNb1Q7HdHCyol0PygrdFJyBV7msQJ',
        refresh_token_expires_in: 2592000,
        refresh_issued_at: '2026-11-25T02:32:30.159Z',
        id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
      },
    },
    {
      summary: 'a token for the client itself (client_credentials): no user, no refresh token, only client scopes',
      basic: CLIENT,
      form: true,
      body: { grant_type: 'client_credentials', scope: 'authorizations:read' },
      status: 200,
      response: {
        access_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6Ii1ZTEdTN2xj…',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'authorizations:read',
        issued_at: '2026-11-25T02:32:30.301Z',
      },
    },
  ],
  'POST /oauth/introspect': [
    {
      summary: 'a resource server asks whether an access token of its client is live (RFC 7662)',
      basic: CLIENT,
      form: true,
      body: { token: '$ACCESS_TOKEN' },
      status: 200,
      response: {
        active: true,
        scope: 'identity:read kyc:read openid',
        client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
        token_type: 'Bearer',
        exp: 1795577549,
        iat: 1795576649,
        sub: 'asu_2WTlhFl2Pvd2pr4amQF8FOjFDTpyZr61',
        aud: 'http://localhost:4000/v2',
        iss: 'http://localhost:4000',
        jti: '8f0c6a43-5d0e-4a8e-9a51-3b1f1f7f1d52',
        authorization_id: 'd323c8af-84b2-4207-aebf-9b7fc374b410',
      },
    },
    {
      summary: 'anything not live, or another client’s, is only inactive',
      basic: CLIENT,
      form: true,
      body: { token: 'svcrt_not-a-token-of-this-client' },
      status: 200,
      response: { active: false },
    },
  ],
  'POST /oauth/wallet-approvals': [
    {
      summary:
        'the credential issuer’s client asks where the wallets’ approvals behind its live credentials stand (here an id of no such approval: unknown, which never revokes anything)',
      setup: `export ISSUER_CLIENT=$(jq -r '.clients.credential_issuer | "\\(.client_id):\\(.client_secret)"' .data/demo.json)`,
      basic: '$ISSUER_CLIENT',
      form: true,
      body: { authorization_id: '0b6f1f3e-2c4d-4e8a-9b1c-5d7e9f1a3b5c' },
      status: 200,
      response: { approvals: [{ authorization_id: '0b6f1f3e-2c4d-4e8a-9b1c-5d7e9f1a3b5c', status: 'unknown' }] },
    },
  ],
  'POST /oauth/revoke': [
    {
      summary: 'revoke a refresh token and the access tokens it produced',
      setup: 'new_tokens   # a grant of its own to end',
      basic: CLIENT,
      form: true,
      body: { token: '$REFRESH_TOKEN' },
      status: 200,
      response: {
        revoked: true,
        revoked_count: 1,
        details: [
          {
            subject: 'token',
            token_type: 'refresh_token',
            authorization_id: 'b36f20df-300f-47b9-8d29-6dad1f7b58de',
            client_id: 'svc_client_0P5yuHOIlh1c2KJk4K3e',
            status: 'revoked',
          },
        ],
      },
    },
  ],
};
