// HAIP 1.0 requests by scope, refused over HTTP: a wallet names a credential by its
// configuration's scope, and the identity provider holds it to the rule its authorization detail
// is held to (the client must be one that may ask for the data the credential's claims come
// from). A credential scope the client may not ask for, or one the issuer does not offer, is
// `invalid_scope`: redirected back to the client from /oauth/authorize, answered to the client at
// PAR, and never stored.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { buildIdp, pkce, REDIRECT } from '../helpers.js';

let db: Db;
let idp: ReturnType<typeof buildIdp>;
let wallet: { id: string; clientId: string };

beforeAll(async () => {
  db = testDb();
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('scope-owner'), password: 'correct horse battery' });
  const org = await createOrg(ctx, { name: 'Wallets', ownerEmail: owner.email });
  // The person's identity data, not their KYC status: age credentials yes, KYC credentials no.
  const made = await createClient(ctx, { org: org.id, name: 'Wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read', public: true });
  wallet = { id: (await db.application.findUniqueOrThrow({ where: { clientId: made.client_id } })).id, clientId: made.client_id };
  const issuerClient = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: [REDIRECT], scopes: 'openid' });
  idp = buildIdp({
    CREDENTIAL_ISSUER_URL: 'https://issuer.example',
    CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id,
    REDIS_KEY_PREFIX: uniqueNamespace('credential-scopes'),
  });
});
afterAll(async () => {
  await idp?.deps.close();
  await db?.$disconnect();
});

/** The parameters of a wallet's request that asks by `scope` alone. */
const asking = (scope: string) => ({
  client_id: wallet.clientId,
  redirect_uri: REDIRECT,
  response_type: 'code',
  scope,
  state: 'st-scope',
  code_challenge: pkce().challenge,
  code_challenge_method: 'S256',
});

/** The wallet's pending authorizations: what /oauth/authorize stored. */
const stored = () => db.authorization.count({ where: { applicationId: wallet.id } });

/** What the client is told in the redirect of a refused authorization request. */
const toldInRedirect = (location: string) => Object.fromEntries(new URL(location).searchParams);

const REFUSED = [
  // Its claims come from kyc:read, which this wallet is not registered for.
  { scope: 'kyc_sd_jwt', why: /kyc_sd_jwt credential: its data needs the scope kyc:read/ },
  // One the issuer does not offer is no credential scope at all: an unknown scope.
  { scope: 'passport_sd_jwt', why: /Unknown scopes: passport_sd_jwt/ },
  // One refused scope refuses the request, with the one it may ask for beside it.
  { scope: 'age_over_mdoc kyc_sd_jwt', why: /kyc:read/ },
];

describe('GET /oauth/authorize: a credential asked for by scope', () => {
  it('is taken when the client may ask for its data', async () => {
    const before = await stored();
    const res = await request(idp.app).get('/oauth/authorize').set('Accept', 'application/json').query(asking('age_over_mdoc'));
    expect(res.status).toBe(200);
    expect(await stored()).toBe(before + 1);
  });

  it.each(REFUSED)('is refused with invalid_scope, sent back to the client, and nothing stored: $scope', async ({ scope, why }) => {
    const before = await stored();
    const res = await request(idp.app).get('/oauth/authorize').set('Accept', 'application/json').query(asking(scope));
    expect(res.status).toBe(303);
    expect(res.headers.location!.startsWith(`${REDIRECT}?`)).toBe(true);
    expect(toldInRedirect(res.headers.location!)).toEqual({
      error: 'invalid_scope',
      error_description: expect.stringMatching(why),
      state: 'st-scope',
      iss: idp.deps.config.issuer,
    });
    expect(await stored()).toBe(before);
  });
});

describe('POST /oauth/par: a credential asked for by scope', () => {
  const push = (scope: string) => request(idp.app).post('/oauth/par').type('form').send(asking(scope));

  it('is taken when the client may ask for its data', async () => {
    const res = await push('age_over_mdoc');
    expect(res.status).toBe(201);
    expect(res.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  });

  it.each(REFUSED)('is refused to the client with 400 invalid_scope and no request_uri: $scope', async ({ scope, why }) => {
    const res = await push(scope);
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ error: 'invalid_scope', error_description: expect.stringMatching(why) });
    expect(res.body).not.toHaveProperty('request_uri');
  });
});
