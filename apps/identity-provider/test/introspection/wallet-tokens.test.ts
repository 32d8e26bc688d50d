import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { addCredential, createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { basic, buildIdp, pkce, REDIRECT, signIn } from '../helpers.js';

// OpenID4VCI's authorization code flow at the identity provider: a wallet asks for credentials
// with RFC 9396 authorization_details, and the credential issuer's own client, and only it,
// learns through introspection what was granted and what the person's data says.
const ISSUER = 'https://issuer.example';
const DETAILS = JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt' }]);
const EXPIRES = new Date(Date.now() + 40 * 86_400_000);
const INACTIVE = { active: false };

let db: Db;
let idp: ReturnType<typeof buildIdp>;
const person = { email: uniqueEmail('holder'), password: 'correct horse battery' };
type Client = { client_id: string; client_secret: string | null };
let wallet: Client;
let issuerClient: Client;
let otherClient: Client;
let walletOrgId: string;
let issuerOrgId: string;

beforeAll(async () => {
  db = testDb();
  const ctx = { db, now: () => new Date() };
  await createUser(ctx, { ...person, palmVerified: true });
  await addCredential(ctx, {
    email: person.email,
    source: 'provider_a',
    claims: JSON.stringify({ date_of_birth: '1990-04-12' }),
    expiresAt: EXPIRES.toISOString(),
  });
  const org = await createOrg(ctx, { name: 'Wallets and issuers', ownerEmail: person.email });
  const scopes = 'openid identity:read';
  wallet = await createClient(ctx, { org: org.id, name: 'Wallet', redirectUris: [REDIRECT], scopes, public: true, presetCacheTtl: 600 });
  otherClient = await createClient(ctx, { org: org.id, name: 'Some resource server', redirectUris: [REDIRECT], scopes });
  // The credential issuer's client in an organization of its own, as deployed: the one its events go to.
  const issuerOrg = await createOrg(ctx, { name: 'Credential issuer', ownerEmail: person.email });
  issuerClient = await createClient(ctx, { org: issuerOrg.id, name: 'Credential issuer', redirectUris: [REDIRECT], scopes: 'openid' });
  [walletOrgId, issuerOrgId] = [org.id, issuerOrg.id];
  idp = buildIdp({ CREDENTIAL_ISSUER_URL: ISSUER, CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id, REDIS_KEY_PREFIX: uniqueNamespace('wallet-tokens') });
});
afterAll(async () => {
  await idp?.deps.close();
  await db?.$disconnect();
});

const introspect = (client: Client, token: string, target = idp.app) =>
  request(target).post('/oauth/introspect').type('form').set('Authorization', basic(client.client_id, client.client_secret!)).send({ token });

/** The wallet's flow, by the API: authorize with the details (and `scope`), approve with `scopes`, exchange. */
async function walletTokens(options: { scope?: string; approve?: string[]; client?: Client; details?: false } = {}) {
  const client = options.client ?? wallet;
  const { verifier, challenge } = pkce();
  const started = await request(idp.app)
    .get('/oauth/authorize')
    .query({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      ...(options.scope ? { scope: options.scope } : {}),
      ...(options.details === false ? {} : { authorization_details: DETAILS }),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
  expect(started.status).toBe(200);
  const session = await signIn(idp.app, person.email, person.password);
  const context = await request(idp.app)
    .get('/oauth/authorize/context')
    .query({ authorization_id: started.body.authorization_id })
    .set('Authorization', `Bearer ${session}`);
  const approved = await request(idp.app)
    .post('/oauth/authorize/approve')
    .set('Authorization', `Bearer ${session}`)
    .send({ authorization_id: started.body.authorization_id, ...(options.approve ? { scopes: options.approve } : {}) });
  expect(approved.status).toBe(200);
  const tokens = await request(idp.app)
    .post('/oauth/token')
    .type('form')
    .send({ grant_type: 'authorization_code', code: approved.body.code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: client.client_id });
  expect(tokens.status).toBe(200);
  return { context: context.body, tokens: tokens.body };
}

describe('a wallet’s grant of credentials', () => {
  it('needs no scope: approved as shown, its tokens are for the issuer too, and every token response (refreshed ones too) says what it grants', async () => {
    const { context, tokens } = await walletTokens();
    expect(context.authorization_details).toEqual([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [ISSUER] }]);
    const granted = [
      { type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [ISSUER], credential_identifiers: ['age_over_sd_jwt'] },
    ];
    expect(tokens.authorization_details).toEqual(granted);
    expect(tokens.scope).toBe('');
    expect(decodeJwt(tokens.access_token).aud).toEqual([`${idp.deps.config.issuer}/v2`, ISSUER]);
    const refreshed = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: wallet.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.authorization_details).toEqual(granted);
  });

  it('is told to the credential issuer’s client with the claims the person’s data holds and when they end, and nothing else of the person', async () => {
    const { tokens } = await walletTokens({ scope: 'openid', approve: ['openid'] });
    const res = await introspect(issuerClient, tokens.access_token);
    expect(res.body).toEqual({
      active: true,
      client_id: wallet.client_id,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
      aud: [`${idp.deps.config.issuer}/v2`, ISSUER],
      iss: idp.deps.config.issuer,
      jti: expect.any(String),
      authorization_id: expect.any(String),
      authorization_details: tokens.authorization_details,
      credential_data: { age_over_sd_jwt: { claims: { age_over_18: true, age_over_21: true }, expires_at: Math.floor(EXPIRES.getTime() / 1000) } },
    });
  });

  it('is told to no other client, and the issuer’s client learns nothing of other tokens, refresh tokens, or past the data window', async () => {
    const { tokens } = await walletTokens();
    expect((await introspect(otherClient, tokens.access_token)).body).toEqual(INACTIVE);
    expect((await introspect(issuerClient, tokens.refresh_token)).body).toEqual(INACTIVE);
    // A token of the same person that grants no credentials (another client's ordinary grant).
    const { verifier, challenge } = pkce();
    const started = await request(idp.app).get('/oauth/authorize').query({
      client_id: otherClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid identity:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const session = await signIn(idp.app, person.email, person.password);
    const code = (
      await request(idp.app)
        .post('/oauth/authorize/approve')
        .set('Authorization', `Bearer ${session}`)
        .send({ authorization_id: started.body.authorization_id })
    ).body.code;
    const plain = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic(otherClient.client_id, otherClient.client_secret!))
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect((await introspect(issuerClient, plain.body.access_token)).body).toEqual(INACTIVE);
    expect((await introspect(otherClient, plain.body.access_token)).body.active).toBe(true);
    // The wallet's client reads the person's data for 600 s after the approval; its 900 s token outlives that.
    const later = buildIdp(
      { CREDENTIAL_ISSUER_URL: ISSUER, CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id, REDIS_KEY_PREFIX: uniqueNamespace('wallet-later') },
      { now: () => new Date(Date.now() + 601_000) },
    );
    try {
      expect((await introspect(issuerClient, tokens.access_token, later.app)).body).toEqual(INACTIVE);
    } finally {
      await later.deps.close();
    }
  });

  it('leaves the issuer’s client able to introspect its own tokens, as any client', async () => {
    const own = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic(issuerClient.client_id, issuerClient.client_secret!))
      .send({ grant_type: 'client_credentials' });
    expect(own.status).toBe(200);
    expect((await introspect(issuerClient, own.body.access_token)).body).toMatchObject({ active: true, client_id: issuerClient.client_id });
  });

  it('is refused to a client whose scopes do not cover the credential’s data, before anything is stored', async () => {
    const res = await request(idp.app)
      .post('/oauth/par')
      .type('form')
      .send({
        client_id: wallet.client_id,
        response_type: 'code',
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        authorization_details: JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'kyc_sd_jwt' }]),
      });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_authorization_details', error_description: expect.stringMatching(/kyc:read/) });
  });
});

describe('a wallet’s grant of credentials, ended', () => {
  /** What the credential issuer's organization, or another, was told of ended wallet approvals. */
  const told = (organizationId: string) =>
    db.webhookEvent
      .findMany({ where: { organizationId, type: 'wallet_approval.revoked' }, orderBy: { occurredAt: 'asc' } })
      .then((rows) => rows.map((r) => r.data as { authorization_id: string }));

  it('is told to the credential issuer’s organization, and only it, when the approval is revoked', async () => {
    const { tokens } = await walletTokens();
    const revoked = await request(idp.app).post('/oauth/revoke').type('form').send({ token: tokens.refresh_token, client_id: wallet.client_id });
    expect(revoked.status).toBe(200);
    const mine = (await told(issuerOrgId)).filter((e) => e.authorization_id === tokens.authorization_id);
    expect(mine).toEqual([{ authorization_id: tokens.authorization_id, credential_configuration_ids: ['age_over_sd_jwt'], reason: 'client' }]);
    expect(await told(walletOrgId)).toEqual([]);
  });

  it('is told for each live approval when the wallet application is revoked, once; an approval without credentials is not the issuer’s business', async () => {
    const ctx = { db, now: () => new Date() };
    const second = await createClient(ctx, { org: walletOrgId, name: 'Second wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read', public: true });
    const live = await walletTokens({ client: second });
    const plain = await walletTokens({ client: second, details: false, scope: 'openid identity:read' });
    const owner = await signIn(idp.app, person.email, person.password);
    const remove = () => request(idp.app).delete(`/v2/developer/applications/${second.client_id}`).set('Authorization', `Bearer ${owner}`);
    expect((await remove()).status).toBe(200);
    expect((await remove()).status).toBe(200);
    const ids = (await told(issuerOrgId)).map((e) => e.authorization_id);
    expect(ids.filter((id) => id === live.tokens.authorization_id)).toHaveLength(1);
    expect(ids).not.toContain(plain.tokens.authorization_id);
    const event = (await told(issuerOrgId)).find((e) => e.authorization_id === live.tokens.authorization_id);
    expect(event).toEqual({ authorization_id: live.tokens.authorization_id, credential_configuration_ids: ['age_over_sd_jwt'], reason: 'application_revoked' });
  });
});

describe('POST /oauth/wallet-approvals: the credential issuer’s reconciliation', () => {
  const ask = (client: Client | undefined, ids: string[]) => {
    const req = request(idp.app).post('/oauth/wallet-approvals').type('form');
    if (client?.client_secret) req.set('Authorization', basic(client.client_id, client.client_secret));
    return req.send(
      new URLSearchParams([
        ...(client && !client.client_secret ? [['client_id', client.client_id]] : []),
        ...ids.map((id) => ['authorization_id', id]),
      ]).toString(),
    );
  };

  it('tells the issuer’s client where each approval stands: active, ended, or unknown (never a reason to revoke)', async () => {
    const live = await walletTokens();
    const ended = await walletTokens();
    await request(idp.app).post('/oauth/revoke').type('form').send({ token: ended.tokens.refresh_token, client_id: wallet.client_id });
    const plain = await walletTokens({ details: false, scope: 'openid identity:read' });
    const unknown = '0b6f1f3e-2c4d-4e8a-9b1c-5d7e9f1a3b5c';
    const ids = [live, ended, plain].map((w) => w.tokens.authorization_id as string);
    const res = await ask(issuerClient, [...ids, unknown]);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // Upper case as a caller may write it: the same approval.
    const res2 = await ask(issuerClient, [ids[0]!.toUpperCase()]);
    expect(res2.body).toEqual({ approvals: [{ authorization_id: ids[0], status: 'active' }] });
    expect(res.body).toEqual({
      approvals: [
        { authorization_id: ids[0], status: 'active' },
        { authorization_id: ids[1], status: 'ended' },
        // An approval that granted no credentials is none of the issuer's business: unknown, as an id of nothing.
        { authorization_id: ids[2], status: 'unknown' },
        { authorization_id: unknown, status: 'unknown' },
      ],
    });
  });

  it('answers no other client, a public one or an anonymous caller, and refuses what is not a list of ids', async () => {
    const id = (await walletTokens()).tokens.authorization_id as string;
    const other = await ask(otherClient, [id]);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('unauthorized_client');
    expect((await ask(wallet, [id])).status).toBe(401);
    expect((await ask(undefined, [id])).status).toBe(401);
    const notIds = await ask(issuerClient, ['nope']);
    expect(notIds.status).toBe(400);
    expect(notIds.body.error_description).toContain('authorization_id');
    const tooMany = await ask(
      issuerClient,
      Array.from({ length: 51 }, () => id),
    );
    expect(tooMany.status).toBe(400);
  });

  it('has a budget of its own: a long sweep past it gets 429 and leaves the issuer its introspection of wallets’ tokens', async () => {
    const limited = buildIdp({
      CREDENTIAL_ISSUER_URL: ISSUER,
      CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id,
      RATE_LIMIT_DEFAULT: '3',
      RATE_LIMIT_UNIT: 'hour',
      REDIS_KEY_PREFIX: uniqueNamespace('wallet-approvals-limit'),
    });
    try {
      const w = await walletTokens();
      const sweep = (target: typeof limited.app) =>
        request(target)
          .post('/oauth/wallet-approvals')
          .type('form')
          .set('Authorization', basic(issuerClient.client_id, issuerClient.client_secret!))
          .send({ authorization_id: w.tokens.authorization_id });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await sweep(limited.app)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const checked = await introspect(issuerClient, w.tokens.access_token, limited.app);
      expect(checked.status).toBe(200);
      expect(checked.body.active).toBe(true);
    } finally {
      await limited.deps.close();
    }
  });
});
