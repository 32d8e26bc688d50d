import type { OperationExample } from '@svc/http';
import { EXAMPLE_NOW as NOW, SANDBOX_ORG_ID as ORG_ID, SANDBOX_USER_ID as USER_ID } from '../example-values.js';

// The sandbox guide's examples (docs/sandbox.md) of an organization's people and tokens: members
// and invitations, personal access tokens, initial access tokens for RFC 7591 registration. They
// stand between the API keys and the test users in the guide's page order (sandbox/openapi-examples.ts).
const token = { Authorization: 'Bearer $TOKEN' };

export const TEAM_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/developer/members': [
    {
      summary: 'invite a teammate, signed in (the token is shown once: hand it over; they join at sign-up or by accepting it)',
      headers: { Authorization: 'Bearer $SESSION_TOKEN' },
      body: { email: 'teammate@example.com', role: 'developer' },
      status: 201,
      response: {
        email: 'teammate@example.com',
        role: 'developer',
        status: 'invited',
        invitation_token: 'sbx_svcinv_3Jq8Lx2Vm7Nz4Kb9Wt1Hp6Yc5Dj0Gf8Sa3Ue7Io2Kl4Ox',
        expires_at: '2026-12-09T10:00:00.000Z',
      },
    },
  ],
  'POST /v2/developer/invitations/accept': [
    {
      summary: 'someone who already has an account accepts, signed in as themselves',
      setup: [
        'export INVITATION_TOKEN=$(curl -s -X POST http://localhost:4005/v2/developer/members -H "Authorization: Bearer $SESSION_TOKEN" \\',
        '  -H \'content-type: application/json\' -d "{\\"email\\": \\"$NEW_EMAIL\\", \\"role\\": \\"developer\\"}" | jq -r .invitation_token)',
        "export NEW_SESSION_TOKEN=$(curl -s -X POST http://localhost:4005/auth/session -H 'content-type: application/json' \\",
        '  -d "{\\"email\\": \\"$NEW_EMAIL\\", \\"password\\": \\"$PASSWORD\\"}" | jq -r .session_token)',
      ].join('\n'),
      headers: { Authorization: 'Bearer $NEW_SESSION_TOKEN' },
      body: { invitation_token: '$INVITATION_TOKEN' },
      status: 200,
      response: { organization_id: ORG_ID, role: 'developer' },
    },
  ],
  'GET /v2/developer/members': [
    {
      summary: 'members, then pending invitations',
      headers: token,
      status: 200,
      response: {
        items: [
          { email: 'dev-3f9a2c1e@example.com', role: 'owner', status: 'member', user_id: USER_ID },
          { email: 'dev-7b2d4e6a@example.com', role: 'developer', status: 'member', user_id: '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b' },
          { email: 'teammate@example.com', role: 'developer', status: 'invited', user_id: null },
        ],
      },
    },
  ],
  'DELETE /v2/developer/members/{user_id}': [
    {
      summary: 'remove a member (owners; anyone may remove themselves)',
      setup: 'export MEMBER_ID=$(sbx GET /v2/developer/members | jq -r --arg email "$NEW_EMAIL" \'.items[] | select(.email == $email) | .user_id\')',
      params: { user_id: '$MEMBER_ID' },
      headers: { Authorization: 'Bearer $SESSION_TOKEN' },
      status: 204,
    },
  ],
  'GET /v2/developer/personal-access-tokens': [
    {
      summary: 'your live personal access tokens (never the tokens themselves)',
      headers: token,
      status: 200,
      response: {
        items: [
          {
            id: '6e5d4c3b-2a19-4f08-8e7d-6c5b4a392817',
            name: 'CI',
            prefix: 'sbx_svcpat_Vq8Lm3',
            created_at: NOW,
            expires_at: '2027-02-23T10:00:00.000Z',
            last_used_at: NOW,
          },
        ],
      },
    },
  ],
  'DELETE /v2/developer/personal-access-tokens/{id}': [
    {
      summary: 'revoke a personal access token at once',
      setup: `export PAT_ID=$(curl -s -X POST http://localhost:4005/v2/developer/personal-access-tokens -H "Authorization: Bearer $SESSION_TOKEN" -H 'content-type: application/json' -d '{"name": "to revoke"}' | jq -r .id)`,
      params: { id: '$PAT_ID' },
      headers: token,
      status: 204,
    },
  ],
  'POST /v2/developer/initial-access-tokens': [
    {
      summary: 'an RFC 7591 initial access token, for registering clients from a pipeline (signed in; shown once)',
      headers: { Authorization: 'Bearer $SESSION_TOKEN' },
      body: { expires_in_hours: 24 },
      status: 201,
      response: {
        id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        token: 'sbx_svciat_Nz4Kx8Lq2Vm6Rb1Wt9Hp3Yc7Dj5Gf0Sa8Ue2Io6Kl4Ox1',
        expires_at: '2026-11-26T10:00:00.000Z',
      },
    },
  ],
  'GET /v2/developer/initial-access-tokens': [
    {
      summary: 'the organization’s live initial access tokens (never the tokens themselves)',
      headers: token,
      status: 200,
      response: {
        items: [{ id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', prefix: 'sbx_svciat_Nz4Kx8', created_at: NOW, expires_at: '2026-11-26T10:00:00.000Z' }],
      },
    },
  ],
  'DELETE /v2/developer/initial-access-tokens/{id}': [
    {
      summary: 'revoke an initial access token at once',
      setup: `export IAT_ID=$(curl -s -X POST http://localhost:4005/v2/developer/initial-access-tokens -H "Authorization: Bearer $SESSION_TOKEN" -H 'content-type: application/json' -d '{}' | jq -r .id)`,
      params: { id: '$IAT_ID' },
      headers: token,
      status: 204,
    },
  ],
};
