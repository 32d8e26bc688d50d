import { errorResponses, type ApiSpec } from '@svc/http';
import { ZRevokeRequest, ZRevokeResponse } from '@svc/schemas';
import { FORM, oauthErrors, rateLimited, session } from '../openapi-responses.js';

/** Revocation (RFC 7009 and the spec's extensions). */
export const REVOCATION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/oauth/revoke',
    tag: 'OAuth',
    summary: 'Revoke tokens or authorizations (RFC 7009 plus tokens[], authorization_id, cascade)',
    description:
      'A confidential client (authenticated) revokes its own tokens and authorizations; a user’s session revokes that user’s authorizations by `authorization_id`. A public client (client_id alone) revokes its tokens as RFC 7009 says, and an `authorization_id` only together with an access or refresh token of that same authorization in `token` or `tokens` (anyone may know an authorization_id: it is in every access token and in the consent and polling URLs); without one the request is refused with 400 invalid_request and nothing is revoked.',
    security: [['clientBasic'], [], ...session!],
    body: ZRevokeRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'What was revoked, per subject', schema: ZRevokeResponse },
      ...oauthErrors({
        400: 'Nothing to revoke, or a public client’s authorization_id without a token of that authorization (invalid_request)',
        401: 'invalid_client or no session',
      }),
      ...errorResponses({ 403: 'CSRF token missing' }),
      ...rateLimited,
    },
  },
];
