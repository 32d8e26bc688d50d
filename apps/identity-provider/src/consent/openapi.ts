import { errorResponses, type ApiSpec } from '@svc/http';
import { ZApproveResponse, ZAuthorizationIdQuery, ZConsentSignInForm, ZConsentSignOutForm, ZDecisionRequest, ZDenyResponse } from '@svc/schemas';
import { FORM, html, redirect, session, unavailablePage } from '../openapi-responses.js';

/** The hosted sign-in and consent pages, and the user's decision. */
export const CONSENT_OPERATIONS: ApiSpec['operations'] = [
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
    path: '/oauth/authorize/approve',
    tag: 'OAuth',
    summary: 'Approve, optionally with fewer scopes',
    description:
      'Form posts (the consent page) answer 303 to the client; JSON callers get the approval. Grants exactly the chosen scopes, each of which must be among the context’s `scopes` (the requested ones and those they imply, all shown to the user); without `scopes`, all of them. A policy requiring palm verification refuses unverified users.',
    security: session,
    body: ZDecisionRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'Approved', schema: ZApproveResponse },
      303: redirect('To the client with code, state and iss'),
      ...errorResponses({
        400: 'Invalid request or scopes not requested',
        401: 'No session',
        403: 'CSRF token missing, palm verification required, or the request asks for a newer or stronger sign-in (login_required)',
        404: 'No such authorization (or another user’s)',
        409: 'Already decided, revoked or expired',
      }),
    },
  },
  {
    method: 'post',
    path: '/oauth/authorize/deny',
    tag: 'OAuth',
    summary: 'Deny',
    security: session,
    body: ZDecisionRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'Denied', schema: ZDenyResponse },
      303: redirect('To the client with error=access_denied, state and iss'),
      ...errorResponses({
        400: 'Invalid request',
        401: 'No session',
        403: 'CSRF token missing',
        404: 'No such authorization (or another user’s)',
        409: 'Already decided or expired',
      }),
    },
  },
];
