// Developers as the self-service tests make them: signed up through the API (the link read from
// the local outbox), signed in, with a personal access token.
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import type { buildIdp } from '../helpers.js';

export const PASSWORD = 'a long enough password';
export const CALLBACK = 'https://app.example/callback';

type App = ReturnType<typeof buildIdp>['app'];

/** The token of the newest sign-up link mailed to `email`, read from `app`'s local outbox. */
export async function mailedSignupToken(app: App, email: string): Promise<string> {
  const outbox = await request(app).get('/dev/outbox.json').query({ to: email });
  const link = (outbox.body.items as { links: string[] }[] | undefined)?.[0]?.links.find((l) => l.includes('/console/signup/confirm'));
  if (!link) throw new Error(`no sign-up link mailed to ${email}: ${outbox.status} ${JSON.stringify(outbox.body)}`);
  return new URL(link).searchParams.get('token')!;
}

/** Signs up in `app` and follows the mailed link: the account and its organization (or membership). */
export async function signUp(app: App, body: { email: string; password?: string; organization_name?: string; invitation_token?: string }) {
  const password = body.password ?? PASSWORD;
  const signup = await request(app)
    .post('/v2/developer/signup')
    .send({ organization_name: body.invitation_token ? undefined : 'Acme', ...body, password });
  if (signup.status !== 202) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const confirmed = await request(app)
    .post('/v2/developer/signup/confirm')
    .send({ token: await mailedSignupToken(app, body.email), password });
  if (confirmed.status !== 201) throw new Error(`confirming the sign-up: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return confirmed.body as { user_id: string; organization_id: string };
}

/** Signs up in `app` (following the mailed link) and signs in: the session token and a personal access token. */
export async function developer(app: App, email = uniqueEmail('dev')) {
  const made = await signUp(app, { email, organization_name: 'Acme' });
  const session = (await request(app).post('/auth/session').send({ email, password: PASSWORD })).body.session_token as string;
  const pat = await request(app).post('/v2/developer/personal-access-tokens').set('Authorization', `Bearer ${session}`).send({ name: 'CI' });
  return { email, session, token: pat.body.token as string, organizationId: made.organization_id, userId: made.user_id };
}

export const as = (token: string) => ({ Authorization: `Bearer ${token}` });
export const confidentialApp = { name: 'My app', redirect_uris: [CALLBACK], scopes: ['openid', 'identity:read'], type: 'confidential' };
