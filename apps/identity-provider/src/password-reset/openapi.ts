import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZPasswordResetAccepted,
  ZPasswordResetConfirmed,
  ZPasswordResetConfirmRequest,
  ZPasswordResetForm,
  ZPasswordResetLinkQuery,
  ZPasswordResetPageQuery,
  ZPasswordResetRequest,
  ZPasswordResetRequestForm,
} from '@svc/schemas';
import { html, orPage, unavailablePage } from '../openapi-responses.js';

const FORM_ONLY = ['application/x-www-form-urlencoded'];

/** Resetting a forgotten password by a mailed single-use link: the API, and the hosted pages over it. */
export const PASSWORD_RESET_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/auth/password-reset',
    tag: 'Sessions',
    summary: 'Ask for a password-reset link by mail',
    description:
      'The answer is the same, and as quick, whether or not the address has an account: the lookup and the mail happen after it. An account with this address is mailed a link to /password-reset that works once, for PASSWORD_RESET_TTL_SECONDS (30 minutes by default); only its hash is kept, and a newer request replaces it. The mail is in the language of Accept-Language (English, German or French). Limited per source address (429) and, silently, to a few mails per address per hour, so nobody’s mailbox can be flooded.',
    body: ZPasswordResetRequest,
    responses: {
      202: { description: 'Asked: a link is mailed if the address has an account (the answer never says which)', schema: ZPasswordResetAccepted },
      ...errorResponses({ 400: 'Invalid request: `details` names the field', 429: 'Too many reset requests from this address (Retry-After)' }),
    },
  },
  {
    method: 'post',
    path: '/auth/password-reset/confirm',
    tag: 'Sessions',
    summary: 'Set a new password with a mailed reset link’s token',
    description:
      'Spends the link (once: of two confirmations at the same moment, one wins), sets the password and, unless sign_out_everywhere is false, ends every session of the account but the one this request presents (its clients are told by back-channel logout). Passkeys are kept. The account’s address is mailed word of the change. The password follows the sign-up rule (8 to 200 characters).',
    body: ZPasswordResetConfirmRequest,
    responses: {
      200: { description: 'The password is changed', schema: ZPasswordResetConfirmed },
      ...errorResponses({ 400: 'A weak password (`details` names the field), or invalid_reset_token: the link is unknown, used, replaced or expired' }),
    },
  },
  {
    method: 'get',
    path: '/password-reset/new',
    tag: 'Hosted pages',
    summary: 'The form that asks for a reset link (linked as “Forgot your password?” from the sign-in pages)',
    query: ZPasswordResetPageQuery,
    responses: { 200: html('The form'), ...unavailablePage },
  },
  {
    method: 'post',
    path: '/password-reset/new',
    tag: 'Hosted pages',
    summary: 'The reset-link request form',
    description:
      'Posted from its own page with the login-CSRF cookie’s token, as the sign-in form is. The page after it says the same whether or not the address has an account.',
    body: ZPasswordResetRequestForm,
    bodyTypes: FORM_ONLY,
    responses: {
      200: html('“Check your mail”'),
      400: html('Not an email address'),
      403: html('The form expired (CSRF)'),
      429: html('Too many reset requests from this address'),
      ...unavailablePage,
    },
  },
  {
    method: 'get',
    path: '/password-reset',
    tag: 'Hosted pages',
    summary: 'The page a mailed reset link opens: the new-password form',
    description:
      'Opening it changes nothing (mail scanners open links too). The answer is never cached, and the token in its address is sent to no other site.',
    query: ZPasswordResetLinkQuery,
    responses: { 200: html('The new-password form'), 400: orPage('The link is unknown, used, replaced or expired'), ...unavailablePage },
  },
  {
    method: 'post',
    path: '/password-reset',
    tag: 'Hosted pages',
    summary: 'The new-password form',
    description:
      'The new password twice, and “Sign me out everywhere else” (ticked by default). Posted from its own page with the login-CSRF cookie’s token. Does what POST /auth/password-reset/confirm does.',
    body: ZPasswordResetForm,
    bodyTypes: FORM_ONLY,
    responses: {
      200: html('The password is changed'),
      400: html('The passwords differ, the new one is too short, or the link is no longer valid'),
      403: html('The form expired (CSRF)'),
      ...unavailablePage,
    },
  },
];
