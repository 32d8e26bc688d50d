// Developers as the self-service tests make them: signed up through the API, signed in, with a
// personal access token.
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import type { buildIdp } from '../helpers.js';

export const PASSWORD = 'a long enough password';
export const CALLBACK = 'https://app.example/callback';

type App = ReturnType<typeof buildIdp>['app'];

/** Signs up in `app` and signs in: the session token and a personal access token. */
export async function developer(app: App, email = uniqueEmail('dev')) {
  const signup = await request(app).post('/v2/developer/signup').send({ email, password: PASSWORD, organization_name: 'Acme' });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const session = (await request(app).post('/auth/session').send({ email, password: PASSWORD })).body.session_token as string;
  const pat = await request(app).post('/v2/developer/personal-access-tokens').set('Authorization', `Bearer ${session}`).send({ name: 'CI' });
  return { email, session, token: pat.body.token as string, organizationId: signup.body.organization_id as string, userId: signup.body.user_id as string };
}

export const as = (token: string) => ({ Authorization: `Bearer ${token}` });
export const confidentialApp = { name: 'My app', redirect_uris: [CALLBACK], scopes: ['openid', 'identity:read'], type: 'confidential' };
