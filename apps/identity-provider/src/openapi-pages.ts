import { errorResponses, type ApiSpec, type ResponseSpec } from '@svc/http';
import {
  ZAuthorizationIdQuery,
  ZConsentSignInForm,
  ZConsentSignOutForm,
  ZErrorBody,
  ZOAuthError,
  ZPresetError,
  ZSessionResponse,
  ZSignInRequest,
} from '@svc/schemas';
import { z } from 'zod';

// The response shapes area A's operations share, and the hosted pages' and sessions' operations.

export const oauthErrors = (statuses: Record<number, string>) => errorResponses(statuses, ZOAuthError);
export const presetErrors = (statuses: Record<number, string>) => errorResponses(statuses, ZPresetError);
export const html = (description: string): ResponseSpec => ({ description, schema: z.string(), contentType: 'text/html' });
export const redirect = (description: string): ResponseSpec => ({ description, headers: { Location: 'Where the browser goes next' } });
export const session = [['sessionBearer'], ['sessionCookie']] as ApiSpec['operations'][number]['security'];
export const dataErrors = presetErrors({ 401: 'E4041 expired token, E4042 invalid or revoked token, E4010 data window over' });
export const rateLimited = errorResponses({ 429: 'Over the client’s rate limit (Retry-After says when to retry)' });
export const FORM = ['application/json', 'application/x-www-form-urlencoded'];
/** A refusal that a browser on the sign-in pages gets as a page in its language (routes/page-errors.ts). */
export const orPage = (description: string): ResponseSpec => ({
  description: `${description} (JSON, or a page for a browser)`,
  schema: ZErrorBody,
  alternatives: [{ contentType: 'text/html', schema: z.string() }],
});
export const unavailablePage = { 503: orPage('PostgreSQL or Redis unreachable: temporarily_unavailable, with Retry-After') };

/** The hosted sign-in and consent pages, and the session endpoints behind them. */
export const PAGE_AND_SESSION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/consent',
    tag: 'Hosted pages',
    summary: 'The sign-in or consent page of an authorization',
    query: ZAuthorizationIdQuery,
    responses: {
      200: html('Sign-in page, or the consent page once signed in'),
      404: html('Expired, answered, or another account’s request'),
      ...unavailablePage,
    },
  },
  {
    method: 'post',
    path: '/consent/sign-in',
    tag: 'Hosted pages',
    summary: 'The sign-in form',
    body: ZConsentSignInForm,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {
      303: redirect('To the consent page'),
      401: html('Wrong email or password'),
      403: html('The form expired (CSRF)'),
      404: html('Expired or answered request'),
      429: html('Too many failed sign-ins'),
      ...unavailablePage,
    },
  },
  {
    method: 'post',
    path: '/consent/sign-out',
    tag: 'Hosted pages',
    summary: '“Not you? Sign out” on the consent page',
    description:
      'Ends the browser’s session (the form carries the session’s CSRF token) and goes back to the sign-in page of the same request, so another account can answer it.',
    body: ZConsentSignOutForm,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {
      303: redirect('To the sign-in page of the same request'),
      403: html('The form expired (CSRF)'),
      404: html('Expired or answered request'),
      ...unavailablePage,
    },
  },
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
