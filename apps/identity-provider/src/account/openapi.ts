import type { ApiSpec } from '@svc/http';
import { ZAccountSignInForm } from '@svc/schemas';
import { html, redirect, unavailablePage } from '../openapi-responses.js';

/** The person's account page: their passkeys. */
export const ACCOUNT_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/account',
    tag: 'Hosted pages',
    summary: 'The account page: the signed-in person’s passkeys, or a sign-in first',
    responses: { 200: html('The passkeys, with adding, renaming and deleting; or, without a session, a sign-in page'), ...unavailablePage },
  },
  {
    method: 'post',
    path: '/account/sign-in',
    tag: 'Hosted pages',
    summary: 'The account page’s password sign-in form',
    body: ZAccountSignInForm,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {
      303: redirect('To the account page'),
      401: html('Wrong email or password'),
      403: html('The form expired (CSRF)'),
      429: html('Too many failed sign-ins'),
      ...unavailablePage,
    },
  },
];
