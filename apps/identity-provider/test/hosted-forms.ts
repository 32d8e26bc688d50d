import request from 'supertest';
import { type buildIdp, pkce, REDIRECT } from './helpers.js';

type App = ReturnType<typeof buildIdp>['app'];

/** A pending authorization of `clientId`, started as an API caller: its id. */
export async function startAuthorization(app: App, clientId: string): Promise<string> {
  const { challenge } = pkce();
  const res = await request(app).get('/oauth/authorize').query({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid identity:read',
    state: 's1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  if (res.status !== 200) throw new Error(`authorize: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.authorization_id as string;
}

/** `name="value"` of each Set-Cookie header, as a browser would send them back. */
export function cookiesFrom(res: request.Response): string {
  const set = res.headers['set-cookie'] as unknown as string[] | undefined;
  return (set ?? []).map((c) => c.split(';')[0]).join('; ');
}

/** The hidden csrf_token field of a hosted page. */
export function csrfField(html: string): string {
  const found = /name="csrf_token" value="([^"]*)"/.exec(html);
  if (!found) throw new Error('no csrf_token field on the page');
  return found[1]!;
}

/** The sign-in page of a pending authorization, as a browser got it: its cookie and form token. */
export async function signInPage(app: App, authorizationId: string) {
  const page = await request(app).get('/consent').set('Accept', 'text/html').query({ authorization_id: authorizationId });
  if (page.status !== 200) throw new Error(`consent page: ${page.status}`);
  return {
    cookie: cookiesFrom(page),
    csrf: csrfField(page.text),
    setCookie: page.headers['set-cookie'] as unknown as string[],
    referrerPolicy: page.headers['referrer-policy'],
  };
}

/** The headers a browser sends with a form posted from one of this service's own pages. */
export const fromOwnPage = (issuer: string) => ({ Origin: new URL(issuer).origin, 'Sec-Fetch-Site': 'same-origin' });
