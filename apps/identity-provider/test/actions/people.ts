// Organizations with an application and people who signed in to it, as the action tests use them.
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { arrange, type buildIdp, exchangeWith, obtainCode, signIn } from '../helpers.js';

type App = ReturnType<typeof buildIdp>['app'];
export type Arranged = Awaited<ReturnType<typeof arrange>>;

export const as = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An organization (its owner signed in, as its developer) with a confidential application. */
export async function organization(db: Db, app: App, options: Parameters<typeof arrange>[1] = {}) {
  const a = await arrange(db, options);
  const developer = await signIn(app, a.user.email, a.user.password);
  return { ...a, developer };
}

/** A person who approved `client` (scope openid identity:read by default): their access token. */
export async function accessToken(
  app: App,
  client: { client_id: string; client_secret?: string | null },
  person: { email: string; password: string },
  scope = 'openid identity:read',
) {
  const session = await signIn(app, person.email, person.password);
  const { code, verifier } = await obtainCode(app, client.client_id, session, { scope });
  const res = await exchangeWith(app, client, { code, code_verifier: verifier });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** Another person, palm-verified unless told otherwise. */
export async function person(a: Arranged, palmVerified = true) {
  const password = 'correct horse battery';
  const user = await createUser(a.ctx, { email: uniqueEmail('person'), password, palmVerified, wallets: [] });
  return { ...user, password };
}

/** A second application of the same organization. */
export async function secondApplication(a: Arranged) {
  return createClient(a.ctx, { org: a.org.id, name: 'Second App', redirectUris: ['https://app.example/callback'], scopes: 'openid identity:read' });
}

/** Another organization with its own application, owned by a new user. */
export async function otherOrganization(a: Arranged) {
  const owner = await person(a);
  const org = await createOrg(a.ctx, { name: 'Other Org', ownerEmail: owner.email });
  const client = await createClient(a.ctx, { org: org.id, name: 'Other App', redirectUris: ['https://app.example/callback'], scopes: 'openid identity:read' });
  return { owner, org, client };
}

export function registerAction(app: App, developer: string, body: object) {
  return request(app).post('/v2/developer/actions').set(as(developer)).send(body);
}

export function prove(app: App, token: string, action: string, body?: object) {
  const req = request(app).post(`/v2/actions/${action}/proofs`).set(as(token));
  return body === undefined ? req : req.send(body);
}
