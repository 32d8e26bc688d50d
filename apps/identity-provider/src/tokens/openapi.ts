import type { ApiSpec } from '@svc/http';
import { ZClientTokenResponse, ZTokenRequest, ZTokenResponse } from '@svc/schemas';
import { z } from 'zod';
import { FORM, oauthErrors, rateLimited } from '../openapi-responses.js';

/** The token endpoint: code exchange and refresh. */
export const TOKEN_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/oauth/token',
    tag: 'OAuth',
    summary: 'Exchange a code, refresh, or get a client token (client_credentials)',
    description:
      'client_secret_basic, client_secret_post, private_key_jwt (RFC 7523), or PKCE alone for public clients. With a `DPoP` proof header (RFC 9449; the current nonce is handed out in `DPoP-Nonce`), tokens are DPoP-bound: `token_type` DPoP, `cnf.jkt` in the access token, and a public client’s refresh token bound to the same key. Refresh tokens rotate; the same refresh token again within 10 s (same client, DPoP key and scope) answers the same pair, and any other reuse of a rotated one revokes every token of the grant. `client_credentials` (confidential clients only) gives the client a token for itself: no user, no refresh token, only client scopes (`authorizations:read`, the change list), never a scope of user data. A wallet attestation (HAIP 1.0: `OAuth-Client-Attestation` and `OAuth-Client-Attestation-PoP`, its PoP’s aud this issuer) that is presented is always checked; with WALLET_ATTESTATION_REQUIRED the code and refresh tokens of a grant that carries credentials (authorization_details, credential scopes) are taken only with one. Failed requests count per client and source address, apart from the client’s budget.',
    security: [['clientBasic'], []],
    body: ZTokenRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'Tokens; for client_credentials, the client’s own access token alone', schema: z.union([ZTokenResponse, ZClientTokenResponse]) },
      ...oauthErrors({
        400: 'invalid_request, invalid_grant, invalid_scope, unauthorized_client, unsupported_grant_type, invalid_dpop_proof, use_dpop_nonce',
        401: 'invalid_client: client authentication failed, a wallet attestation that does not hold, or none for a grant that carries credentials where WALLET_ATTESTATION_REQUIRED (the code or refresh token is not spent)',
      }),
      ...rateLimited,
    },
  },
];
