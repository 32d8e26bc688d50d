import type { ApiSpec } from '@svc/http';
import { ZEndSessionRequest } from '@svc/schemas';
import { html, redirect } from '../openapi-responses.js';

const description =
  'OpenID Connect RP-Initiated Logout 1.0. With an `id_token_hint` this issuer signed for the client (expired ones too) naming the signed-in person, the session ends at once; otherwise the person is asked on a page of this service, whose form posts back here with its CSRF token. Ending a session tells every client authorized in it that registered a `backchannel_logout_uri` (Back-Channel Logout 1.0: a signed `logout+jwt` with `sub` and `sid`). The person is sent to `post_logout_redirect_uri` with `state` only when it is registered exactly for the client (named by `client_id` or the hint); anything else is refused on a page, never followed. Without it, a page says the person is signed out.';

const responses = {
  200: html('The confirmation page, or the page that says the person is signed out'),
  303: redirect('To the registered post_logout_redirect_uri, with state'),
  400: html('An id_token_hint this issuer did not sign, a client_id that is not its audience, or a post_logout_redirect_uri not registered for the client'),
  403: html('The confirmation form was not posted from this service’s own page, or its CSRF token is wrong'),
};

/** The end-session endpoint (RP-Initiated Logout 1.0). */
export const LOGOUT_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/oauth/logout',
    tag: 'OAuth',
    summary: 'Sign the person out, as an app asks (RP-Initiated Logout)',
    description,
    query: ZEndSessionRequest,
    responses,
  },
  {
    method: 'post',
    path: '/oauth/logout',
    tag: 'OAuth',
    summary: 'Sign the person out: the same as a form post, and the confirmation page’s answer',
    description,
    body: ZEndSessionRequest,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses,
  },
];
