// HAIP 1.0 requests by scope, refused over HTTP: a wallet names a credential by its
// configuration's scope, and the identity provider holds it to the rule its authorization detail
// is held to (the client must be one that may ask for the data the credential's claims come
// from). A credential scope the client may not ask for, or one the issuer does not offer, is
// `invalid_scope`: redirected back to the client from /oauth/authorize, answered to the client at
// PAR, and never stored. However a wallet asks (by scope, by authorization_details, or both), one
// request names at most 6 credentials, counted once each.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { CREDENTIAL_CONFIGURATION_IDS } from '@svc/schemas';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { buildIdp, pkce, REDIRECT } from '../helpers.js';

let db: Db;
let idp: ReturnType<typeof buildIdp>;
let wallet: { id: string; clientId: string };
/** A wallet that may ask for every credential (identity and KYC data): all 8 configurations. */
let everyCredential: { id: string; clientId: string };

beforeAll(async () => {
  db = testDb();
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('scope-owner'), password: 'correct horse battery' });
  const org = await createOrg(ctx, { name: 'Wallets', ownerEmail: owner.email });
  // The person's identity data, not their KYC status: age credentials yes, KYC credentials no.
  const made = await createClient(ctx, { org: org.id, name: 'Wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read', public: true });
  wallet = { id: (await db.application.findUniqueOrThrow({ where: { clientId: made.client_id } })).id, clientId: made.client_id };
  const every = await createClient(ctx, { org: org.id, name: 'Full wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read kyc:read', public: true });
  everyCredential = { id: (await db.application.findUniqueOrThrow({ where: { clientId: every.client_id } })).id, clientId: every.client_id };
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

describe('at most 6 credentials in one request, however asked', () => {
  const details = (...ids: string[]) => JSON.stringify(ids.map((id) => ({ type: 'openid_credential', credential_configuration_id: id })));
  /** The parameters of a request of the wallet that may ask for every credential. */
  const askingAll = (ask: { scope?: string; authorization_details?: string }) => ({
    ...asking(ask.scope ?? ''),
    client_id: everyCredential.clientId,
    ...(ask.authorization_details ? { authorization_details: ask.authorization_details } : {}),
  });
  const storedForAll = () => db.authorization.count({ where: { applicationId: everyCredential.id } });
  const TOO_MANY = [
    // All 8 of the issuer's configurations by scope.
    { how: 'by scope', ask: { scope: CREDENTIAL_CONFIGURATION_IDS.join(' ') } },
    // 7 by scope, with a data scope beside them.
    { how: 'by scope, with openid', ask: { scope: `openid ${CREDENTIAL_CONFIGURATION_IDS.slice(0, 7).join(' ')}` } },
    // 4 by details and 3 others by scope: 7 together, each list alone within the cap.
    {
      how: 'by scope and authorization_details together',
      ask: { authorization_details: details(...CREDENTIAL_CONFIGURATION_IDS.slice(0, 4)), scope: CREDENTIAL_CONFIGURATION_IDS.slice(4, 7).join(' ') },
    },
  ];
  // 4 by details and 3 by scope, one of them asked both ways: 6 credentials, counted once each.
  const SIX = { authorization_details: details(...CREDENTIAL_CONFIGURATION_IDS.slice(0, 4)), scope: CREDENTIAL_CONFIGURATION_IDS.slice(3, 6).join(' ') };

  it.each(TOO_MANY)('/oauth/authorize sends invalid_authorization_details back to the client, nothing stored: $how', async ({ ask }) => {
    const before = await storedForAll();
    const res = await request(idp.app).get('/oauth/authorize').set('Accept', 'application/json').query(askingAll(ask));
    expect(res.status).toBe(303);
    expect(res.headers.location!.startsWith(`${REDIRECT}?`)).toBe(true);
    expect(toldInRedirect(res.headers.location!)).toEqual({
      error: 'invalid_authorization_details',
      error_description: expect.stringMatching(/at most 6 credentials/),
      state: 'st-scope',
      iss: idp.deps.config.issuer,
    });
    expect(await storedForAll()).toBe(before);
  });

  it.each(TOO_MANY)('/oauth/par answers 400 invalid_authorization_details and no request_uri: $how', async ({ ask }) => {
    const res = await request(idp.app).post('/oauth/par').type('form').send(askingAll(ask));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_authorization_details', error_description: expect.stringMatching(/at most 6 credentials/) });
    expect(res.body).not.toHaveProperty('request_uri');
  });

  it('takes 6, one of them asked both ways, at both endpoints', async () => {
    const before = await storedForAll();
    const started = await request(idp.app).get('/oauth/authorize').set('Accept', 'application/json').query(askingAll(SIX));
    expect(started.status).toBe(200);
    expect(await storedForAll()).toBe(before + 1);
    const pushed = await request(idp.app).post('/oauth/par').type('form').send(askingAll(SIX));
    expect(pushed.status).toBe(201);
  });
});
