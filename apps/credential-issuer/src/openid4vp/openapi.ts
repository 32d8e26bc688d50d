import { errorResponses, type OperationExample, type OperationSpec } from '@svc/http';
import {
  PRESENTATION_CHECKS,
  ZCreatedPresentationRequest,
  ZCreatePresentationRequest,
  ZDcApiPresentationResponse,
  ZPresentationRequestParams,
  ZPresentationResult,
  ZPresentationResultQuery,
  ZWalletPresentationResponse,
  ZWalletResponseAnswer,
} from '@svc/schemas';
import { z } from 'zod';

const TAG = 'Presentations (OpenID4VP)';
const keyRefused = {
  401: 'X-API-Token missing or unknown',
  403: 'Disabled, or without presentations:verify',
  429: 'Over the key’s limits or its organization’s budget, or (making a request) as many requests open as PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION allows; Retry-After',
};
const tooMany = 'Over WALLET_REQUESTS_PER_MINUTE from this address (Retry-After)';

/** OpenID4VP 1.0 at the credential issuer: what integrators ask of wallets, what wallets fetch and answer. */
export const PRESENTATION_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/presentation-requests',
    tag: TAG,
    summary: 'Ask a person’s wallet to prove presets (or answer a DCQL query)',
    description: `Presets (is_human, palm_verified, age_over_18, age_over_21, kyc_passed, country_of_residence) become a DCQL query: one credential query per kind of credential that answers any of them (this issuer’s SD-JWT VCs and mdocs, the EU age verification mdoc, the EU PID as SD-JWT VC and mdoc, an ISO mDL), one required credential set per preset. Or give dcql_query yourself (OpenID4VP 1.0 §6), not both. policy: the query engine’s policy (allOf/anyOf/not of checks) over the presets, or over <credential query id>.<claim> for a DCQL query; it does not change the status, its result comes with evidence. formats narrows the formats (ldp_vc is not verified yet and is refused); trusted_issuers narrows trust to those issuer URLs or PEM roots (otherwise: this issuer’s CA and TRUSTED_ISSUER_CERTS). The request is open 300 s and answered once. request_link (openid4vp://) is for a QR code or a phone; with expected_origins, dc_api is what a page passes to navigator.credentials.get({digital: {requests: [dc_api]}}). redirect_uri (same device, direct_post.jwt only): where the wallet sends the person once it has answered, with response_code added; the result is then read with that code (OpenID4VP 1.0 §13.3).`,
    security: [['apiToken']],
    body: ZCreatePresentationRequest,
    responses: {
      201: { description: 'The request, open for 300 s', schema: ZCreatedPresentationRequest },
      ...errorResponses({
        400: 'Invalid request, each field named: presets and dcql_query together or neither, a preset no credential of the allowed formats answers, a format this service does not verify, a policy that reads what the request does not ask for, dc_api.jwt without expected_origins or with redirect_uri, a redirect_uri that is not https (or http on localhost) or has a fragment',
        ...keyRefused,
      }),
    },
  },
  {
    method: 'get',
    path: '/presentation-requests/{id}',
    tag: TAG,
    summary: 'The result: pending, verified, failed or expired',
    description: `verified: presets {value, format, issuer, verified_at, expires_at, vouched_by? (this service’s own credentials: identity_provider or organization)}, claims (what was disclosed, per credential query id) and, with a policy, policy_result {result, evidence}. failed (or pending after a refused answer): errors [{check, credential_query_id?, message}], check one of ${PRESENTATION_CHECKS.join(', ')}. Nothing else of the presentation is kept. Requests of other organizations are 404. A request made with redirect_uri and answered by a wallet that sent the person back is read with response_code, the code that redirect carried.`,
    security: [['apiToken']],
    params: ZPresentationRequestParams,
    query: ZPresentationResultQuery,
    responses: {
      200: { description: 'The result', schema: ZPresentationResult },
      ...errorResponses({
        400: 'Not a request id; response_code missing or not this answer’s (a request answered on the person’s device)',
        404: 'No such request for this organization',
        ...keyRefused,
      }),
    },
  },
  {
    method: 'get',
    path: '/presentation-requests/{id}/request-object',
    tag: TAG,
    summary: 'The signed request object a wallet fetches by its request_uri',
    description:
      'Public: the URI is the secret. A JWT (typ oauth-authz-req+jwt, ES256, x5c the verifier’s certificate chain) with client_id x509_hash:<SHA-256 of the leaf>, response_mode direct_post.jwt, response_uri, nonce, state, dcql_query and client_metadata (jwks: the request’s own ECDH-ES P-256 key the answer is encrypted to; A128GCM or A256GCM).',
    params: ZPresentationRequestParams,
    responses: {
      200: {
        description: 'The request object',
        schema: z.string(),
        contentType: 'application/oauth-authz-req+jwt',
        headers: { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' },
      },
      ...errorResponses({ 400: 'invalid_request: the request is not open (unknown, answered or expired: the same words for each)', 429: tooMany }),
    },
  },
  {
    method: 'post',
    path: '/presentation-requests/{id}/response',
    tag: TAG,
    summary: 'The wallet’s answer (direct_post.jwt)',
    description:
      'Form-encoded response=<JWE> (ECDH-ES to the request’s key; plaintext {vp_token: {<credential query id>: [<presentation>]}, state}). One that does not decrypt is refused and changes nothing. A verified answer closes the request (presentation.verified); a refused one leaves it open, its errors in the result, until the third closes it as failed (presentation.failed): anyone who saw the link can encrypt to the key. SD-JWT VC: the issuer’s x5c chain to a trusted root naming its iss, key binding JWT with this nonce and the client_id as aud, disclosures, Token Status List, validity. mdoc: issuerAuth chain, MSO digests and validity, the device signature over the OpenID4VP session transcript.',
    params: ZPresentationRequestParams,
    body: ZWalletPresentationResponse,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {
      200: {
        description:
          'Received and verified: {} or, for a request made with redirect_uri, {redirect_uri} (that URI with response_code) for the wallet to send the person to',
        schema: ZWalletResponseAnswer,
        headers: { 'Access-Control-Allow-Origin': '*' },
      },
      ...errorResponses({
        400: 'invalid_request: the request is not open (unknown, answered or expired: the same words for each), an answer that does not decrypt (the request stays open), or a presentation that failed a check (the result says which; the third closes the request)',
        409: 'already_answered: another answer was taken first',
        429: tooMany,
      }),
    },
  },
  {
    method: 'post',
    path: '/presentation-requests/{id}/dc-api-response',
    tag: TAG,
    summary: 'Relay what a page got from the Digital Credentials API',
    description:
      'The integrator’s backend, with its API key, posts {response: <the DigitalCredential’s data>, origin: <the page’s origin>}. The origin must be one of the request’s expected_origins (otherwise 400 and the request stays open), and the key binding must be for origin:<origin> (OpenID4VP 1.0 Appendix A), so a forged origin gains nothing. Answers with the result.',
    security: [['apiToken']],
    params: ZPresentationRequestParams,
    body: ZDcApiPresentationResponse,
    responses: {
      200: { description: 'The result, verified or failed', schema: ZPresentationResult },
      ...errorResponses({
        400: 'invalid_request (no open request, an answer that does not decrypt, a request made without expected_origins), unexpected_origin',
        404: 'No such request for this organization',
        409: 'already_answered',
        ...keyRefused,
      }),
    },
  },
];

const ISSUER = 'http://localhost:4002';
const ID = '3f0e6f5e-8a4b-4d55-9a57-3b1c2d4e5f60';
const ASK = `export PRESENTATION=$(curl -s -X POST ${ISSUER}/presentation-requests -H "X-API-Token: $API_TOKEN" -H 'content-type: application/json' -d '{"presets": ["age_over_18"]}')
export PRESENTATION_ID=$(echo "$PRESENTATION" | jq -r .id)`;
const DCQL_AGE = {
  credentials: [
    {
      id: 'age_over_sd_jwt',
      format: 'dc+sd-jwt',
      meta: { vct_values: [`${ISSUER}/credential-types/age-over`] },
      claims: [{ id: 'age_over_18', path: ['age_over_18'] }],
    },
    {
      id: 'eu_age_verification',
      format: 'mso_mdoc',
      meta: { doctype_value: 'eu.europa.ec.av.1' },
      claims: [{ id: 'age_over_18', path: ['eu.europa.ec.av.1', 'age_over_18'] }],
    },
  ],
  credential_sets: [{ options: [['age_over_sd_jwt'], ['eu_age_verification']], required: true }],
};

export const PRESENTATION_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /presentation-requests': [
    {
      summary: 'ask for age_over_18: any credential that answers it will do, and a page on https://shop.example may ask through the DC API',
      headers: { 'X-API-Token': '$API_TOKEN' },
      body: {
        presets: ['age_over_18'],
        expected_origins: ['https://shop.example'],
        policy: { allOf: [{ claim: 'age_over_18', operator: '==', value: true }] },
      },
      status: 201,
      response: {
        id: ID,
        status: 'pending',
        expires_at: '2026-12-10T09:05:00.000Z',
        request_uri: `${ISSUER}/presentation-requests/${ID}/request-object`,
        request_link: `openid4vp://?client_id=x509_hash%3AUmS3aB1lXq9w0kYt3VdQf6rH2nJ8pC4eZxGo7bLsM1A&request_uri=http%3A%2F%2Flocalhost%3A4002%2Fpresentation-requests%2F${ID}%2Frequest-object`,
        dc_api: { protocol: 'openid4vp-v1-signed', data: { request: 'eyJhbGciOiJFUzI1NiIsInR5cCI6Im9hdXRoLWF1dGh6LXJlcStqd3QiLCJ4NWMiOlsi…' } },
        dcql_query: DCQL_AGE,
      },
    },
  ],
  'GET /presentation-requests/{id}': [
    {
      summary:
        'the result after a wallet answered: here the guide’s command line wallet (scripts/wallet.mjs, made of outside libraries) takes an age SD-JWT VC from an offer and presents it to the request',
      setup: `${ASK}
node apps/credential-issuer/scripts/wallet.mjs prove "$(echo "$PRESENTATION" | jq -r .request_link)" --offer "$(curl -s -X POST ${ISSUER}/credential-offers \\
  -H "X-API-Token: $API_TOKEN" -H 'content-type: application/json' \\
  -d '{"credential_configuration_id": "age_over_sd_jwt", "claims": {"age_over_18": true}, "tx_code": false}' | jq -r .offer_link)"   # {"status":200,"credential_query_id":"age_over_sd_jwt","disclosed":{"age_over_18":true}}`,
      params: { id: '$PRESENTATION_ID' },
      headers: { 'X-API-Token': '$API_TOKEN' },
      status: 200,
      response: {
        id: ID,
        status: 'verified',
        expires_at: '2026-12-10T09:05:00.000Z',
        presets: {
          age_over_18: { value: true, format: 'dc+sd-jwt', issuer: ISSUER, verified_at: '2026-12-10T09:00:04.000Z', expires_at: '2027-12-10T09:00:00.000Z' },
        },
        claims: { age_over_sd_jwt: { age_over_18: true } },
      },
    },
  ],
  'GET /presentation-requests/{id}/request-object': [
    {
      summary: 'the signed request, as a wallet fetches it from the request_link',
      setup: ASK,
      params: { id: '$PRESENTATION_ID' },
      status: 200,
      response: 'eyJhbGciOiJFUzI1NiIsInR5cCI6Im9hdXRoLWF1dGh6LXJlcStqd3QiLCJ4NWMiOlsi…',
    },
  ],
  'POST /presentation-requests/{id}/response': [
    {
      summary: 'an answer that does not decrypt under the request’s key: refused, and the request stays open',
      setup: ASK,
      params: { id: '$PRESENTATION_ID' },
      form: true,
      body: { response: 'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSJ9..not-for-this-request' },
      status: 400,
      response: {
        error: 'invalid_request',
        error_description: 'The answer does not decrypt under this request’s key (ECDH-ES with A128GCM or A256GCM, to client_metadata.jwks)',
      },
    },
  ],
  'POST /presentation-requests/{id}/dc-api-response': [
    {
      summary: 'a DC API answer relayed from a page this request does not name: refused, and the request stays open',
      setup: ASK,
      params: { id: '$PRESENTATION_ID' },
      headers: { 'X-API-Token': '$API_TOKEN' },
      body: { response: { response: 'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSJ9…' }, origin: 'https://elsewhere.example' },
      status: 400,
      response: {
        error: 'invalid_request',
        error_description: 'This request was made without expected_origins, so it cannot be answered over the Digital Credentials API',
      },
    },
  ],
};
