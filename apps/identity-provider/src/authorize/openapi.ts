import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZAuthorizationContext,
  ZAuthorizationIdQuery,
  ZAuthorizationResult,
  ZAuthorizationResultRequest,
  ZAuthorizeQuery,
  ZAuthorizeResponse,
  ZOAuthError,
  ZPushedAuthorizationRequest,
  ZPushedAuthorizationResponse,
} from '@svc/schemas';
import { z } from 'zod';
import { FORM, oauthErrors, orPage, rateLimited, redirect, session, unavailablePage } from '../openapi-responses.js';

/** The authorization request and its outcome (RFC 6749 §4.1, RFC 9207). */
export const AUTHORIZE_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/oauth/authorize',
    tag: 'OAuth',
    summary: 'Start an authorization (PKCE S256 only)',
    description:
      'API callers get JSON; browsers (Accept prefers text/html) are sent to the hosted pages. An unknown client or a redirect_uri that does not match exactly is shown an error, never redirected; other errors are redirected to the client with error, error_description, state and iss. With `request_uri` (from `POST /oauth/par`, RFC 9126) the pushed request is used once and every other parameter but client_id is ignored; an unknown, expired, spent or other client’s request_uri is shown `invalid_request_uri`. A client registered with `require_pushed_authorization_requests` is refused any request that was not pushed. With `request` (RFC 9101) the request is a JWT the client signed with a key of its registered JWK Set, and every other parameter but client_id is ignored; one that does not verify is shown `invalid_request_object`. With `authorization_details` (RFC 9396, a JSON array; OpenID4VCI 1.0 §5.1.1) a wallet asks for credentials of the configured credential issuer, `[{"type":"openid_credential","credential_configuration_id":"age_over_sd_jwt"}]`, and `scope` may be left out; another type, an unknown configuration, `locations` naming another issuer or no credential issuer configured: `invalid_authorization_details`. A wallet may ask by a configuration’s `scope` instead (its id, as the issuer’s metadata says: `scope=age_over_mdoc`; HAIP 1.0), which is shown, granted and answered exactly as the matching authorization detail; one whose data the client may not ask for is `invalid_scope`. At most 6 credentials in one request, by `authorization_details` and scope together (one asked both ways counts once); more is `invalid_authorization_details`.',
    query: ZAuthorizeQuery,
    responses: {
      200: { description: 'The pending authorization', schema: ZAuthorizeResponse },
      303: redirect('To the consent page (browsers), or back to the client with an error'),
      400: {
        description: 'Unknown client, redirect_uri mismatch, or a malformed request (JSON, or a page for browsers)',
        schema: ZOAuthError,
        alternatives: [{ contentType: 'text/html', schema: z.string() }],
      },
      429: orPage('Too many authorization requests for this client from this address (AUTHORIZE_RATE_LIMIT per minute)'),
      ...unavailablePage,
    },
  },
  {
    method: 'post',
    path: '/oauth/par',
    tag: 'OAuth',
    summary: 'Push an authorization request first (PAR, RFC 9126)',
    description:
      'The client sends the parameters of its authorization request here, authenticated as at the token endpoint (a public client with its client_id alone), and gets a `request_uri` for the browser: `/oauth/authorize?client_id=…&request_uri=…`. The request is checked as `/oauth/authorize` checks one (exact redirect_uri, S256 PKCE, scopes the client may request), and every problem is answered here as a 400 OAuth error, never through a redirect. The request_uri is good once, for 60 seconds, for this client only. With `request` (RFC 9101, RFC 9126 §3) the pushed request is a JWT signed with a key of the client’s registered JWK Set (asymmetric algorithms only; `iss` the client, `aud` the issuer as one string, `exp` at most an hour away, `nbf` at most an hour back, `typ` oauth-authz-req+jwt when given) and the form’s other parameters are ignored; one that does not verify is 400 `invalid_request_object` with the reason.',
    security: [['clientBasic'], []],
    body: ZPushedAuthorizationRequest,
    bodyTypes: FORM,
    responses: {
      201: { description: 'The reference to send the browser with', schema: ZPushedAuthorizationResponse },
      ...oauthErrors({
        400: 'invalid_request (a redirect_uri not registered exactly, a request_uri pushed), invalid_scope, invalid_authorization_details, unsupported_response_type',
        401: 'invalid_client: client authentication failed, a wallet attestation that does not hold, or none for a request for credentials where WALLET_ATTESTATION_REQUIRED',
      }),
      ...rateLimited,
    },
  },
  {
    method: 'get',
    path: '/oauth/authorize/context',
    tag: 'OAuth',
    summary: 'The authorization context, for its own user',
    security: session,
    query: ZAuthorizationIdQuery,
    responses: {
      200: { description: 'The context', schema: ZAuthorizationContext },
      ...errorResponses({ 400: 'Invalid request', 401: 'No session', 404: 'No such authorization (or another user’s)' }),
    },
  },
  {
    method: 'get',
    path: '/oauth/authorize/result',
    tag: 'OAuth',
    summary: 'The outcome of an authorization, for a device that polls',
    description:
      'Anyone holding the id learns the status, state and redirect_uri. The `code` (and a `redirect_to` carrying it) is answered only to the confidential client that owns the authorization, authenticated with HTTP Basic here or, as a form post, with client_secret_post or private_key_jwt. A public client gets its code only through the redirect to its registered redirect_uri. Failed client authentications count per client and source address, as at the token endpoint: past `AUTH_FAILURE_LIMIT` in five minutes, 429 with Retry-After.',
    security: [[], ['clientBasic']],
    query: ZAuthorizationIdQuery,
    responses: {
      200: { description: 'The outcome', schema: ZAuthorizationResult },
      ...oauthErrors({ 400: 'Invalid request', 401: 'invalid_client' }),
      ...errorResponses({ 404: 'No such authorization, or another client’s' }),
      ...rateLimited,
    },
  },
  {
    method: 'post',
    path: '/oauth/authorize/result',
    tag: 'OAuth',
    summary: 'The outcome of an authorization, for its client authenticating in the body',
    security: [[], ['clientBasic']],
    body: ZAuthorizationResultRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'The outcome', schema: ZAuthorizationResult },
      ...oauthErrors({ 400: 'Invalid request', 401: 'invalid_client' }),
      ...errorResponses({ 404: 'No such authorization, or another client’s' }),
      ...rateLimited,
    },
  },
];
