import type { OperationExample } from '@svc/http';

// The guide's wallet examples (docs/credential-issuer.md, "Every endpoint, by example"), in page
// order after the others, each fresh where it must be: an offer's code is taken once, a nonce once.
const ISSUER = 'http://localhost:4002';
/** The identity provider, as the authorization server of the authorization code flow, and the demo wallet's redirect URI. */
const IDP = 'http://localhost:4000';
const WALLET_REDIRECT = 'http://localhost:4003/callback';
const token = { 'X-API-Token': '$API_TOKEN' };
const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const NEW_OFFER = `curl -s -X POST ${ISSUER}/credential-offers -H "X-API-Token: $API_TOKEN" -H 'content-type: application/json' \\
  -d '{"credential_configuration_id": "age_over_sd_jwt", "claims": {"age_over_18": true}, "tx_code": true}'`;
const OFFER = {
  credential_issuer: ISSUER,
  credential_configuration_ids: ['age_over_sd_jwt'],
  grants: {
    [GRANT]: {
      'pre-authorized_code': 'uQJ8X0nS2oVb3cY7pT1kLm5dRzW9aFhE4gKxN6jQvCs',
      tx_code: { input_mode: 'numeric', length: 6, description: 'The code the service that offered this credential gave you' },
    },
  },
};
/** A fresh offer traded for an access token, and a nonce: what a wallet has before its credential request. */
const OFFER_TOKEN_AND_NONCE = `export OFFER=$(${NEW_OFFER})
export ACCESS_TOKEN=$(curl -s -X POST ${ISSUER}/token -d grant_type=${GRANT} \\
  --data-urlencode "pre-authorized_code=$(echo "$OFFER" | jq -r '.credential_offer.grants[] | .["pre-authorized_code"]')" \\
  -d "tx_code=$(echo "$OFFER" | jq -r .tx_code)" | jq -r .access_token)
export C_NONCE=$(curl -s -X POST ${ISSUER}/nonce | jq -r .c_nonce)`;
const NOTIFICATION_ID = 'nId_7QmZ2xVb9kLp4TqW1sRy8cHd';
const SD_JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6ImRjK3NkLWp3dCIsImtpZCI6IjFWb2h…~WyJkT1lWZk1xUE1rUE1xN0dDWkxhSHNnIiwiYWdlX292ZXJfMTgiLHRydWVd~';

export const WALLET_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /credential-offers': [
    {
      summary: 'an age credential for a person’s wallet, with a transaction code',
      headers: token,
      body: { credential_configuration_id: 'age_over_sd_jwt', claims: { age_over_18: true, age_over_21: false }, tx_code: true },
      status: 201,
      response: {
        id: '0e6f3b1c-5a2d-4c8e-9f7a-1b3d5e7f9a2c',
        credential_offer: OFFER,
        credential_offer_uri: `${ISSUER}/credential-offers/b-xNvJJsbW71Qjey3Lj7pzMgXeIg3xxp5UEXj8J4v2c`,
        offer_link: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ISSUER}/credential-offers/b-xNvJJsbW71Qjey3Lj7pzMgXeIg3xxp5UEXj8J4v2c`)}`,
        tx_code: '493027',
        expires_at: '2026-11-26T10:05:00.000Z',
      },
    },
  ],
  'GET /credential-offers/{handle}': [
    {
      summary: 'what the wallet reads behind the link it scanned (public: the URI is the secret)',
      setup: `export OFFER=$(${NEW_OFFER})
export OFFER_HANDLE=$(echo "$OFFER" | jq -r '.credential_offer_uri | split("/") | last')`,
      params: { handle: '$OFFER_HANDLE' },
      status: 200,
      response: OFFER,
    },
  ],
  'GET /.well-known/openid-credential-issuer': [
    {
      summary: 'the credential issuer metadata (shortened to two configurations: the age credential as an SD-JWT VC and as the EU age verification mdoc)',
      status: 200,
      response: {
        credential_issuer: ISSUER,
        credential_endpoint: `${ISSUER}/credential`,
        nonce_endpoint: `${ISSUER}/nonce`,
        notification_endpoint: `${ISSUER}/notification`,
        batch_credential_issuance: { batch_size: 10 },
        credential_request_encryption: {
          jwks: {
            keys: [
              {
                kty: 'EC',
                crv: 'P-256',
                x: 'gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0',
                y: 'SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps',
                kid: 'credential-issuer-request-encryption',
                use: 'enc',
                alg: 'ECDH-ES',
              },
            ],
          },
          enc_values_supported: ['A128GCM', 'A256GCM'],
          encryption_required: false,
        },
        credential_response_encryption: { alg_values_supported: ['ECDH-ES'], enc_values_supported: ['A128GCM', 'A256GCM'], encryption_required: false },
        display: [{ name: 'Credential issuer', locale: 'en' }],
        credential_configurations_supported: {
          age_over_sd_jwt: {
            format: 'dc+sd-jwt',
            vct: `${ISSUER}/credential-types/age-over`,
            cryptographic_binding_methods_supported: ['jwk'],
            credential_signing_alg_values_supported: ['ES256'],
            scope: 'age_over_sd_jwt',
            proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256', 'EdDSA'] } },
            credential_metadata: {
              display: [{ name: 'Age', locale: 'en', description: 'Whether the person is over 18 and over 21, never the date of birth.' }],
              claims: [
                { path: ['age_over_18'], display: [{ name: 'Over 18', locale: 'en' }] },
                { path: ['age_over_21'], display: [{ name: 'Over 21', locale: 'en' }] },
              ],
            },
          },
          age_over_mdoc: {
            format: 'mso_mdoc',
            doctype: 'eu.europa.ec.av.1',
            cryptographic_binding_methods_supported: ['cose_key'],
            credential_signing_alg_values_supported: [-7],
            scope: 'age_over_mdoc',
            proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
            credential_metadata: {
              display: [{ name: 'Age', locale: 'en', description: 'Whether the person is over 18 and over 21, never the date of birth.' }],
              claims: [
                { path: ['eu.europa.ec.av.1', 'age_over_18'], display: [{ name: 'Over 18', locale: 'en' }] },
                { path: ['eu.europa.ec.av.1', 'age_over_21'], display: [{ name: 'Over 21', locale: 'en' }] },
              ],
            },
          },
        },
      },
    },
  ],
  'GET /.well-known/oauth-authorization-server': [
    {
      summary: 'where a wallet trades its pre-authorized code',
      status: 200,
      response: {
        issuer: ISSUER,
        token_endpoint: `${ISSUER}/token`,
        grant_types_supported: [GRANT],
        'pre-authorized_grant_anonymous_access_supported': true,
        response_types_supported: [],
        token_endpoint_auth_methods_supported: ['none'],
      },
    },
  ],
  'GET /.well-known/jwt-vc-issuer': [
    {
      summary: 'the keys a verifier checks SD-JWT VCs with',
      status: 200,
      response: {
        issuer: ISSUER,
        jwks: {
          keys: [
            {
              kty: 'EC',
              crv: 'P-256',
              x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
              y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
              kid: '1VohqK0Y3cNq8rJmQ4pQp3p7u7b0Ir5fZ1d2VYdZ3Ds',
              alg: 'ES256',
              use: 'sig',
              x5c: ['MIIB2TCCAX+gAwIBAgIQR3n0e5c1x2VvYl0dWm2kYDAKBggqhkjOPQQDAjA0MRkw…'],
            },
          ],
        },
      },
    },
  ],
  'GET /credential-types/{type}': [
    {
      summary: 'the type metadata behind a vct',
      params: { type: 'age-over' },
      status: 200,
      response: {
        vct: `${ISSUER}/credential-types/age-over`,
        name: 'Age',
        description: 'Whether the person is over 18 and over 21, never the date of birth.',
        display: [{ locale: 'en', name: 'Age', description: 'Whether the person is over 18 and over 21, never the date of birth.' }],
        claims: [
          { path: ['age_over_18'], display: [{ locale: 'en', label: 'Over 18' }], sd: 'always' },
          { path: ['age_over_21'], display: [{ locale: 'en', label: 'Over 21' }], sd: 'always' },
        ],
      },
    },
  ],
  'POST /token': [
    {
      summary: 'the wallet trades the offer’s code and the transaction code the person typed',
      setup: `export OFFER=$(${NEW_OFFER})
export PRE_AUTHORIZED_CODE=$(echo "$OFFER" | jq -r '.credential_offer.grants[] | .["pre-authorized_code"]')
export TX_CODE=$(echo "$OFFER" | jq -r .tx_code)`,
      form: true,
      body: { grant_type: GRANT, 'pre-authorized_code': '$PRE_AUTHORIZED_CODE', tx_code: '$TX_CODE' },
      status: 200,
      response: { access_token: 'Zb6fN1pX3qL8vR2mT7wK9cY4hJ0sD5gA1eU6iO3nB8k', token_type: 'Bearer', expires_in: 300 },
    },
  ],
  'POST /nonce': [{ summary: 'a nonce for the holder’s key proof', status: 200, response: { c_nonce: 'wKZ3y8Vn1oQpT6rS2mL9xB4cD7fH0jA5gE3kN8uI1zY' } }],
  'POST /credential': [
    {
      summary: 'the credential, bound to the key the wallet proved (the proof made by scripts/wallet.mjs, as a wallet makes it)',
      setup: `${OFFER_TOKEN_AND_NONCE}
export PROOF=$(node apps/credential-issuer/scripts/wallet.mjs proof --audience ${ISSUER} --nonce="$C_NONCE")`,
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      body: { credential_configuration_id: 'age_over_sd_jwt', proofs: { jwt: ['$PROOF'] } },
      status: 200,
      response: { credentials: [{ credential: SD_JWT }], notification_id: NOTIFICATION_ID },
    },
    {
      summary:
        'a credential the person approved at the identity provider (the authorization code flow): the demo wallet pushes its request with authorization_details, the demo person signs in and approves, the wallet trades the code for a token and names the credential by the credential_identifier the token response gave',
      setup: `export WALLET_CLIENT=$(jq -r .clients.wallet.client_id .data/demo.json)
export VERIFIER=$(openssl rand -hex 32)   # PKCE: the wallet's secret for this one request
export REQUEST_URI=$(curl -s -X POST ${IDP}/oauth/par -d client_id=$WALLET_CLIENT -d response_type=code -d redirect_uri=${WALLET_REDIRECT} \\
  -d code_challenge=$(printf %s "$VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d =) -d code_challenge_method=S256 \\
  --data-urlencode 'authorization_details=[{"type": "openid_credential", "credential_configuration_id": "age_over_sd_jwt"}]' | jq -r .request_uri)
# The person's part (the consent page does this in a browser): sign in, see what is asked, approve.
export SESSION=$(curl -s -X POST ${IDP}/auth/session -H 'content-type: application/json' \\
  -d "$(jq '.users.palm_verified | {email, password}' .data/demo.json)" | jq -r .session_token)
export AUTHORIZATION_ID=$(curl -s -G ${IDP}/oauth/authorize -H 'accept: application/json' \\
  --data-urlencode client_id=$WALLET_CLIENT --data-urlencode request_uri=$REQUEST_URI | jq -r .authorization_id)
export CODE=$(curl -s -X POST ${IDP}/oauth/authorize/approve -H "authorization: Bearer $SESSION" -H 'content-type: application/json' \\
  -d "$(jq -n --arg id "$AUTHORIZATION_ID" '{authorization_id: $id}')" | jq -r .code)
export WALLET_TOKEN=$(curl -s -X POST ${IDP}/oauth/token -d grant_type=authorization_code -d code=$CODE -d client_id=$WALLET_CLIENT \\
  -d redirect_uri=${WALLET_REDIRECT} -d code_verifier=$VERIFIER | jq -r .access_token)
export C_NONCE=$(curl -s -X POST ${ISSUER}/nonce | jq -r .c_nonce)
export PROOF=$(node apps/credential-issuer/scripts/wallet.mjs proof --audience ${ISSUER} --nonce="$C_NONCE")`,
      headers: { Authorization: 'Bearer $WALLET_TOKEN' },
      body: { credential_identifier: 'age_over_sd_jwt', proofs: { jwt: ['$PROOF'] } },
      status: 200,
      response: { credentials: [{ credential: SD_JWT }], notification_id: NOTIFICATION_ID },
    },
  ],
  'POST /notification': [
    {
      summary: 'the wallet says it stored the credentials of a response (GET /credentials then shows wallet_event)',
      setup: `${OFFER_TOKEN_AND_NONCE}
export NOTIFICATION_ID=$(curl -s -X POST ${ISSUER}/credential -H "Authorization: Bearer $ACCESS_TOKEN" -H 'content-type: application/json' \\
  -d "{\\"credential_configuration_id\\": \\"age_over_sd_jwt\\", \\"proofs\\": {\\"jwt\\": [\\"$(node apps/credential-issuer/scripts/wallet.mjs proof --audience ${ISSUER} --nonce="$C_NONCE")\\"]}}" \\
  | jq -r .notification_id)`,
      headers: { Authorization: 'Bearer $ACCESS_TOKEN' },
      body: { notification_id: '$NOTIFICATION_ID', event: 'credential_accepted' },
      status: 204,
    },
  ],
  'GET /token-status-lists/{id}': [
    {
      summary: 'the public Token Status List an SD-JWT VC names (here one received by scripts/wallet.mjs, the whole flow)',
      setup: `export SD_JWT_VC=$(node apps/credential-issuer/scripts/wallet.mjs receive "$(curl -s -X POST ${ISSUER}/credential-offers -H "X-API-Token: $API_TOKEN" \\
  -H 'content-type: application/json' -d '{"credential_configuration_id": "kyc_sd_jwt", "claims": {"kyc_passed": true}, "tx_code": false}' | jq -r .offer_link)")
export TOKEN_STATUS_LIST_ID=$(echo "$SD_JWT_VC" | jq -r '.payload.status.status_list.uri | split("/") | last')`,
      params: { id: '$TOKEN_STATUS_LIST_ID' },
      status: 200,
      response:
        'eyJhbGciOiJFUzI1NiIsInR5cCI6InN0YXR1c2xpc3Qrand0Iiwia2lkIjoiMVZvaHFLMFkzY05xOHJKbVE0cFFwM3A3dTdiMElyNWZaMWQyVllkWjNEcyJ9.eyJpc3MiOiJodHRwOi8vbG9jYWxob3N0OjQwMDIiLCJzdWIiOiJodHRwOi8vbG9jYWxob3N0OjQwMDIvdG9rZW4tc3RhdHVzLWxpc3RzLzNjMWU2YTBmLThiMmQtNGY1Ny05ZTRhLTZkMGMyYjdmMWE5NSIsInN0YXR1c19saXN0Ijp7ImJpdHMiOjEsImxzdCI6ImVOcnR3VEVCQUFBQXdxRDFUMjBNbjZBQUFBQUFBQUFBQUFBQUFBQS4uLiJ9fQ.…',
    },
  ],
  'POST /authorization-server/events': [
    {
      summary:
        'an event the identity provider did not sign, refused (its own deliveries carry the endpoint’s signature: revoke an approval and the credential’s bit turns to 1)',
      headers: { 'webhook-id': 'msg_forged', 'webhook-timestamp': '$(date +%s)', 'webhook-signature': 'v1,Zm9yZ2Vk' },
      body: {
        type: 'wallet_approval.revoked',
        timestamp: '2026-11-26T09:00:00.000Z',
        data: { authorization_id: '6f1c2b7e-3d4a-4b8c-9e0f-1a2b3c4d5e6f', credential_configuration_ids: ['age_over_sd_jwt'], reason: 'user' },
      },
      status: 401,
      response: {
        error: 'invalid_signature',
        error_description: 'webhook-signature does not match the body',
      },
    },
  ],
};
