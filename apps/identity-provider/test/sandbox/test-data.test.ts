// The sandbox's synthetic people: made with chosen presets and statuses, authorized without a
// browser, and every preset error produced on purpose; only in the sandbox, only for their organization.
import { describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@svc/testkit';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { signUp } from '../developer/developers.js';
import { basic, type buildIdp, eventually, holdNotifications, pkce, useIdp, useSandbox } from '../helpers.js';

const production = useIdp({ CONSOLE_SIGNUP: 'open' });
const sandbox = useSandbox();
const CALLBACK = 'https://app.example/callback';
const PASSWORD = 'a long enough password';
type App = ReturnType<typeof buildIdp>['app'];

/** A developer of a new organization with an application: its token and client. */
async function organization(app: App) {
  const email = uniqueEmail('dev');
  await signUp(app, { email, password: PASSWORD, organization_name: 'Org' });
  const session = (await request(app).post('/auth/session').send({ email, password: PASSWORD })).body.session_token;
  const token = (await request(app).post('/v2/developer/personal-access-tokens').set('Authorization', `Bearer ${session}`).send({ name: 't' })).body.token;
  const client = (
    await request(app)
      .post('/v2/developer/applications')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'App', redirect_uris: [CALLBACK], scopes: ['openid', 'identity:read', 'kyc:read'], type: 'confidential' })
  ).body as { client_id: string; client_secret: string };
  return { token: token as string, auth: { Authorization: `Bearer ${token}` }, client };
}

type Org = Awaited<ReturnType<typeof organization>>;

async function testUser(org: Org, body: object) {
  const res = await request(sandbox.idp.app).post('/v2/sandbox/users').set(org.auth).send(body);
  if (res.status !== 201) throw new Error(`test user: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { user_id: string; email: string; password: string };
}

/** A test user authorizes the org's app without a browser; the code exchanged as any client does. */
async function grant(org: Org, userId: string, scope = 'openid identity:read kyc:read') {
  const { verifier, challenge } = pkce();
  const approval = await request(sandbox.idp.app)
    .post('/v2/sandbox/authorizations')
    .set(org.auth)
    .send({ client_id: org.client.client_id, user_id: userId, scope, redirect_uri: CALLBACK, code_challenge: challenge, state: 's1' });
  expect(approval.status).toBe(201);
  const tokens = await request(sandbox.idp.app)
    .post('/oauth/token')
    .type('form')
    .set('Authorization', basic(org.client.client_id, org.client.client_secret))
    .send({ grant_type: 'authorization_code', code: approval.body.code, redirect_uri: CALLBACK, code_verifier: verifier });
  expect(tokens.status).toBe(200);
  return {
    authorizationId: approval.body.authorization_id as string,
    accessToken: tokens.body.access_token as string,
    approval: approval.body,
    tokens: tokens.body,
  };
}

const preset = (name: string, accessToken: string) => request(sandbox.idp.app).get(`/v2/presets/${name}`).set('Authorization', `Bearer ${accessToken}`);

describe('test data in production', () => {
  it('does not exist: every /v2/sandbox path is 404 for a signed-in developer, whatever the body', async () => {
    const org = await organization(production.idp.app);
    for (const attempt of [
      request(production.idp.app)
        .post('/v2/sandbox/users')
        .send({ presets: { date_of_birth: '1990-01-01' } }),
      request(production.idp.app).post('/v2/sandbox/users').send('not json'),
      request(production.idp.app).get('/v2/sandbox/users'),
      request(production.idp.app).post('/v2/sandbox/authorizations').send({}),
      request(production.idp.app).post('/v2/sandbox/authorizations/6f0c3a4e-2b1d-4c8e-9a7f-1e2d3c4b5a69/expired-access-token'),
    ]) {
      const res = await attempt.set(org.auth);
      expect([res.status, res.body.error]).toEqual([404, 'not_found']);
    }
    expect(await production.db.user.count({ where: { testUserOfOrganizationId: { not: null } } })).toBe(0);
  });
});

describe('test users', () => {
  it('are made with the presets and statuses asked for, and listed by their organization only', async () => {
    const org = await organization(sandbox.idp.app);
    const made = await request(sandbox.idp.app)
      .post('/v2/sandbox/users')
      .set(org.auth)
      .send({
        wallet_address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
        presets: { palm_verified: true, date_of_birth: '1990-04-12', nationality: 'DE', kyc_passed: true, proof_of_assets: true },
        statuses: { kyc_passed: 'pending', proof_of_assets: 'revoked', nationality: 'expired' },
      });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      email: expect.stringMatching(/@sandbox\.invalid$/),
      password: expect.any(String),
      wallet_address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
      palm_verified: true,
      presets: { palm_verified: 'valid', date_of_birth: 'valid', nationality: 'expired', kyc_passed: 'pending', proof_of_assets: 'revoked' },
    });
    // A test user signs in like any user (the hosted pages, a browser test).
    expect((await request(sandbox.idp.app).post('/auth/session').send({ email: made.body.email, password: made.body.password })).status).toBe(200);
    const other = await organization(sandbox.idp.app);
    expect((await request(sandbox.idp.app).get('/v2/sandbox/users').set(other.auth)).body.items).toEqual([]);
    expect((await request(sandbox.idp.app).get('/v2/sandbox/users').set(org.auth)).body.items.map((u: { user_id: string }) => u.user_id)).toEqual([
      made.body.user_id,
    ]);
    expect((await request(sandbox.idp.app).delete(`/v2/sandbox/users/${made.body.user_id}`).set(other.auth)).status).toBe(404);
    expect((await request(sandbox.idp.app).delete(`/v2/sandbox/users/${made.body.user_id}`).set(org.auth)).status).toBe(204);
    expect((await request(sandbox.idp.app).get('/v2/sandbox/users').set(org.auth)).body.items).toEqual([]);
  });

  it('checks every value as the admin CLI does: a derived preset names its parent, each problem its field; nothing is made', async () => {
    const org = await organization(sandbox.idp.app);
    const res = await request(sandbox.idp.app)
      .post('/v2/sandbox/users')
      .set(org.auth)
      .send({
        presets: { age_over_18: true, date_of_birth: 'last spring', shoe_size: 44, is_human: true, net_worth_total: 'lots' },
        statuses: { kyc_passed: 'pending' },
      });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'body.presets.age_over_18', message: 'is derived from date_of_birth: give date_of_birth instead' },
      { field: 'body.presets.date_of_birth', message: expect.stringMatching(/^must be /) },
      { field: 'body.presets.shoe_size', message: 'is not a preset (GET /v2/presets lists them)' },
      { field: 'body.presets.is_human', message: 'is derived from palm_verified: give palm_verified instead' },
      { field: 'body.presets.net_worth_total', message: expect.stringMatching(/^must be /) },
      { field: 'body.statuses.kyc_passed', message: 'names a preset not given in presets' },
    ]);
    expect((await request(sandbox.idp.app).get('/v2/sandbox/users').set(org.auth)).body.items).toEqual([]);
  });

  it('may be made by a sandbox application with its own client credentials, which authorizes itself only and deletes nothing', async () => {
    const org = await organization(sandbox.idp.app);
    const asApp = basic(org.client.client_id, org.client.client_secret);
    const made = await request(sandbox.idp.app)
      .post('/v2/sandbox/users')
      .set('Authorization', asApp)
      .send({ presets: { kyc_passed: true } });
    expect(made.status).toBe(201);
    expect((await request(sandbox.idp.app).get('/v2/sandbox/users').set(org.auth)).body.items).toHaveLength(1);
    const wrong = await request(sandbox.idp.app).post('/v2/sandbox/users').set('Authorization', basic(org.client.client_id, 'wrong')).send({});
    expect(wrong.status).toBe(401);
    // Another application of the same organization is not this one's to authorize.
    const sibling = (
      await request(sandbox.idp.app)
        .post('/v2/developer/applications')
        .set(org.auth)
        .send({ name: 'Sibling', redirect_uris: [CALLBACK], scopes: ['openid'], type: 'confidential' })
    ).body;
    const { challenge } = pkce();
    const forSibling = await request(sandbox.idp.app)
      .post('/v2/sandbox/authorizations')
      .set('Authorization', asApp)
      .send({ client_id: sibling.client_id, user_id: made.body.user_id, scope: 'openid', redirect_uri: CALLBACK, code_challenge: challenge });
    expect(forSibling.status).toBe(404);
    const siblingGrant = await grant({ ...org, client: sibling }, made.body.user_id, 'openid');
    const mint = await request(sandbox.idp.app)
      .post(`/v2/sandbox/authorizations/${siblingGrant.authorizationId}/expired-access-token`)
      .set('Authorization', asApp);
    expect(mint.status).toBe(404);
    const deleted = await request(sandbox.idp.app).delete(`/v2/sandbox/users/${made.body.user_id}`).set('Authorization', asApp);
    expect(deleted.status).toBe(409);
  });

  it('live under reserved domains only, so a test user never takes a real person’s email (attack: blocking a developer’s sign-up)', async () => {
    const org = await organization(sandbox.idp.app);
    const real = await request(sandbox.idp.app).post('/v2/sandbox/users').set(org.auth).send({ email: 'ceo@bigcorp.com', presets: {} });
    expect(real.status).toBe(400);
    expect(real.body.details[0].field).toBe('body.email');
    const reserved = await request(sandbox.idp.app)
      .post('/v2/sandbox/users')
      .set(org.auth)
      .send({ email: uniqueEmail('qa').replace(/@.*/, '@qa.example.test'), presets: {} });
    expect(reserved.status).toBe(201);
    // Every name RFC 2606 reserves, the error cites it, and look-alikes of them are not reserved.
    for (const domain of ['a.example', 'a.localhost', 'example.com', 'qa.example.net', 'example.org', 'sandbox.invalid']) {
      const made = await request(sandbox.idp.app)
        .post('/v2/sandbox/users')
        .set(org.auth)
        .send({ email: uniqueEmail('qa').replace(/@.*/, `@${domain}`), presets: {} });
      expect([domain, made.status]).toEqual([domain, 201]);
    }
    for (const domain of ['myexample.com', 'example.com.evil.io', 'test.com', 'example.co']) {
      const refused = await request(sandbox.idp.app)
        .post('/v2/sandbox/users')
        .set(org.auth)
        .send({ email: `qa@${domain}`, presets: {} });
      expect([domain, refused.status]).toEqual([domain, 400]);
      expect(refused.body.details[0].message).toContain('RFC 2606');
    }
  });
});

describe('a browserless authorization of a test user', () => {
  it('signs the test user in as the request says, so that step-up can be tried: acr and its age', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { palm_verified: true, presets: { date_of_birth: '1990-04-12' } });
    const { challenge } = pkce();
    const approve = (extra: object) =>
      request(sandbox.idp.app)
        .post('/v2/sandbox/authorizations')
        .set(org.auth)
        .send({ client_id: org.client.client_id, user_id: user.user_id, scope: 'openid', redirect_uri: CALLBACK, code_challenge: challenge, ...extra });
    const refused = await approve({ acr: 'gold', signed_in_seconds_ago: -1 });
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(['body.acr', 'body.signed_in_seconds_ago']);
    const { verifier, challenge: c2 } = pkce();
    const approval = await approve({ acr: 'phr', signed_in_seconds_ago: 600, code_challenge: c2 });
    expect(approval.status).toBe(201);
    const tokens = await request(sandbox.idp.app)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic(org.client.client_id, org.client.client_secret))
      .send({ grant_type: 'authorization_code', code: approval.body.code, redirect_uri: CALLBACK, code_verifier: verifier });
    const claims = decodeJwt(tokens.body.id_token);
    expect(claims).toMatchObject({ acr: 'phr', amr: ['swk', 'user'] });
    expect(Math.abs((claims.auth_time as number) - (Date.now() / 1000 - 600))).toBeLessThan(30);
  });

  it('gives a code the client exchanges as usual, and each preset error can be produced on purpose', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { palm_verified: true, presets: { date_of_birth: '1990-04-12', kyc_passed: true }, statuses: { kyc_passed: 'pending' } });
    const { authorizationId, accessToken, approval } = await grant(org, user.user_id);
    expect(approval).toMatchObject({
      status: 'approved',
      state: 's1',
      client_id: org.client.client_id,
      granted_scopes: ['identity:read', 'kyc:read', 'openid'],
    });
    expect((await preset('age_over_18', accessToken)).body).toMatchObject({ preset: 'age_over_18', value: true, status: 'valid' });
    const codes = async (name: string, token: string) => {
      const res = await preset(name, token);
      return [res.status, res.body.error_code];
    };
    expect(await codes('kyc_passed', accessToken)).toEqual([409, 'E4004']);
    expect(await codes('shoe_size', accessToken)).toEqual([404, 'E4044']);
    const narrow = await grant(org, user.user_id, 'openid identity:read');
    expect(await codes('kyc_passed', narrow.accessToken)).toEqual([403, 'E4003']);
    const expired = await request(sandbox.idp.app).post(`/v2/sandbox/authorizations/${authorizationId}/expired-access-token`).set(org.auth);
    expect(expired.status).toBe(200);
    expect(await codes('age_over_18', expired.body.access_token)).toEqual([401, 'E4041']);
    const ended = await request(sandbox.idp.app).post(`/v2/sandbox/authorizations/${authorizationId}/expire-data`).set(org.auth);
    expect(ended.status).toBe(200);
    expect(await codes('age_over_18', accessToken)).toEqual([401, 'E4010']);
    await request(sandbox.idp.app)
      .post('/oauth/revoke')
      .type('form')
      .set('Authorization', basic(org.client.client_id, org.client.client_secret))
      .send({ token: narrow.accessToken });
    expect(await codes('identity_verified', narrow.accessToken)).toEqual([401, 'E4042']);
  });

  it('takes the scopes as a string (scope) or an array (scopes), exactly one of them', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { presets: {} });
    const ask = (scopes: object) =>
      request(sandbox.idp.app)
        .post('/v2/sandbox/authorizations')
        .set(org.auth)
        .send({ client_id: org.client.client_id, user_id: user.user_id, redirect_uri: CALLBACK, code_challenge: pkce().challenge, ...scopes });
    const asArray = await ask({ scopes: ['openid', 'identity:read'] });
    expect(asArray.status).toBe(201);
    expect(asArray.body.granted_scopes).toEqual(['identity:read', 'openid']);
    for (const wrong of [{}, { scope: 'openid', scopes: ['openid'] }, { scopes: ['openid identity:read'] }, { scopes: [] }]) {
      const refused = await ask(wrong);
      expect(refused.status).toBe(400);
      expect(refused.body.details[0].field).toMatch(/^body\.scope/);
    }
  });

  it('gives refresh tokens the client can revoke, as in production', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { presets: {} });
    const { tokens } = await grant(org, user.user_id);
    expect(tokens.refresh_token).toMatch(/^sbx_svcrt_/);
    const auth = basic(org.client.client_id, org.client.client_secret);
    const revoked = await request(sandbox.idp.app).post('/oauth/revoke').set('Authorization', auth).send({ token: tokens.refresh_token });
    expect(revoked.body).toMatchObject({ revoked: true, revoked_count: 1, details: [{ token_type: 'refresh_token', status: 'revoked' }] });
    const refreshed = await request(sandbox.idp.app)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', auth)
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.body.error).toBe('invalid_grant');
    const introspected = await request(sandbox.idp.app).post('/oauth/introspect').type('form').set('Authorization', auth).send({ token: tokens.refresh_token });
    expect(introspected.body).toEqual({ active: false });
  });

  it('is checked as /oauth/authorize checks it, and only for the organization’s own applications, users and authorizations', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { presets: { kyc_passed: true } });
    const { challenge } = pkce();
    const ask = (o: Org, body: object) =>
      request(sandbox.idp.app)
        .post('/v2/sandbox/authorizations')
        .set(o.auth)
        .send({ client_id: org.client.client_id, user_id: user.user_id, scope: 'openid', redirect_uri: CALLBACK, code_challenge: challenge, ...body });
    expect((await ask(org, { redirect_uri: 'https://app.example/other' })).body.error_description).toBe(
      'redirect_uri does not exactly match a URI registered for this client',
    );
    expect((await ask(org, { scope: 'openid financial:read' })).body.error_description).toBe('This client may not request: financial:read');
    expect((await ask(org, { code_challenge: 'short' })).status).toBe(400);
    const mallory = await organization(sandbox.idp.app);
    expect((await ask(mallory, {})).status).toBe(404);
    expect((await ask(mallory, { client_id: mallory.client.client_id })).body.error).toBe('test_user_not_found');
    const { authorizationId } = await grant(org, user.user_id, 'openid identity:read');
    for (const action of ['expire-data', 'expired-access-token']) {
      expect((await request(sandbox.idp.app).post(`/v2/sandbox/authorizations/${authorizationId}/${action}`).set(mallory.auth)).status).toBe(404);
    }
  });

  it('ends with its test user: deleting the user refuses its tokens at once, before any notification arrives', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { presets: { date_of_birth: '1990-04-12' } });
    const { accessToken } = await grant(org, user.user_id, 'openid identity:read');
    await eventually(() => sandbox.idp.deps.tokens.grants.live);
    expect((await preset('age_over_18', accessToken)).status).toBe(200);
    const late = holdNotifications(sandbox.idp);
    try {
      expect((await request(sandbox.idp.app).delete(`/v2/sandbox/users/${user.user_id}`).set(org.auth)).status).toBe(204);
      expect((await preset('age_over_18', accessToken)).body.error_code).toBe('E4042');
    } finally {
      late.release();
    }
  });

  it('ends a data window at once on the replica that ended it, before any notification arrives', async () => {
    const org = await organization(sandbox.idp.app);
    const user = await testUser(org, { presets: { date_of_birth: '1990-04-12' } });
    const { authorizationId, accessToken } = await grant(org, user.user_id, 'openid identity:read');
    await eventually(() => sandbox.idp.deps.tokens.grants.live);
    expect((await preset('age_over_18', accessToken)).status).toBe(200);
    const late = holdNotifications(sandbox.idp);
    try {
      expect((await request(sandbox.idp.app).post(`/v2/sandbox/authorizations/${authorizationId}/expire-data`).set(org.auth)).status).toBe(200);
      expect((await preset('age_over_18', accessToken)).body.error_code).toBe('E4010');
    } finally {
      late.release();
    }
  });
});
