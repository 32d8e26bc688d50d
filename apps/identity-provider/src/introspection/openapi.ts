import type { ApiSpec } from '@svc/http';
import { ZIntrospectionRequest, ZIntrospectionResponse, ZWalletApprovalsRequest, ZWalletApprovalsResponse } from '@svc/schemas';
import { z } from 'zod';
import { FORM, oauthErrors, rateLimited } from '../openapi-responses.js';

/** Token introspection (RFC 7662), with the signed answer of RFC 9701. */
export const INTROSPECTION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/oauth/introspect',
    tag: 'OAuth',
    summary: 'Is this token active, and what does it carry? (RFC 7662)',
    description:
      'For a resource server holding one of its client’s tokens. The client authenticates as at the token endpoint (client_secret_basic, client_secret_post or private_key_jwt; a public client cannot introspect) and is charged against an introspection budget as large as its rate limit (apart from its reads and token requests). An access or refresh token issued to this client and still live answers `active: true` with its scope, client, pairwise subject, expiry and `cnf` (DPoP binding); anything else (expired, revoked, rotated, unknown, or another client’s) answers only `{"active": false}`. With `Accept: application/token-introspection+jwt` the same answer comes as a JWT signed by the issuer’s key set (RFC 9701): `iss`, `aud` (the client), `iat` and `token_introspection`. The credential issuer’s own client (CREDENTIAL_ISSUER_CLIENT_ID) also learns of wallets’ live access tokens that grant credentials of that issuer (authorization_details of type openid_credential, the issuer in aud, within the wallet client’s data window): with authorization_details and credential_data (per credential, its claims read from the person’s data now and expires_at), without sub or scope.',
    security: [['clientBasic'], []],
    body: ZIntrospectionRequest,
    bodyTypes: FORM,
    responses: {
      200: {
        description: 'The token’s state',
        schema: ZIntrospectionResponse,
        alternatives: [{ contentType: 'application/token-introspection+jwt', schema: z.string() }],
      },
      ...oauthErrors({ 400: 'invalid_request', 401: 'invalid_client, or a public client' }),
      ...rateLimited,
    },
  },
  {
    method: 'post',
    path: '/oauth/wallet-approvals',
    tag: 'OAuth',
    summary: 'Which wallets’ approvals still stand? (the credential issuer’s reconciliation)',
    description:
      'For the credential issuer’s own confidential client (CREDENTIAL_ISSUER_CLIENT_ID) only, authenticated as at the token endpoint; served only where a credential issuer is configured. For up to 50 `authorization_id`s (repeated in the form, or a JSON array), each answers `status`: `active` while the approval (one that granted credentials: authorization_details) is approved and its application live, `ended` once it is revoked or its application is, `unknown` for an id of no such approval here. The issuer asks about the approvals behind its live credentials every few minutes and revokes those of an `ended` one, so a wallet_approval.revoked that never reached it still takes effect; `unknown` never revokes anything (a restored or wrong database cannot end valid credentials). Charged against a budget of its own, as large as the client’s rate limit (past it 429), so a long sweep never uses up the issuer’s introspection of wallets’ tokens.',
    security: [['clientBasic'], []],
    body: ZWalletApprovalsRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'Each approval asked about, live or not', schema: ZWalletApprovalsResponse },
      ...oauthErrors({
        400: 'invalid_request (an id named), or unauthorized_client: not the credential issuer’s client',
        401: 'invalid_client, or a public client',
      }),
      ...rateLimited,
    },
  },
];
