import { errorResponses, type ApiSpec } from '@svc/http';
import { ZSessionResponse, ZSignInRequest } from '@svc/schemas';
import { FORM, session } from '../openapi-responses.js';

/** A user's session: signing in and out through the API. */
export const SESSION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/auth/session',
    tag: 'Sessions',
    summary: 'Sign in',
    description:
      'Also sets the HttpOnly session cookie. Failed sign-ins slow further attempts (per account and source address, and per source address), never lock the account: an attempt before the delay has passed is a 429 with Retry-After. A form-encoded post must come from this service’s own pages (Origin and Fetch Metadata; login CSRF); JSON callers are unaffected.',
    body: ZSignInRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'Signed in', schema: ZSessionResponse },
      ...errorResponses({
        400: 'Invalid request',
        401: 'Wrong email or password (invalid_credentials)',
        403: 'A form post from another site (csrf_failed)',
        429: 'Too soon after failed sign-ins (Retry-After)',
      }),
    },
  },
  {
    method: 'delete',
    path: '/auth/session',
    tag: 'Sessions',
    summary: 'Sign out',
    security: session,
    responses: { 204: { description: 'Signed out' }, ...errorResponses({ 401: 'No session', 403: 'CSRF token missing (cookie sessions)' }) },
  },
];
