// Production and the sandbox side by side, each on its own database with its own keys: what the
// sandbox makes is marked sbx_, and a credential sent to the wrong one is refused with a reason
// that names where it belongs.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, exchangeWith, issueTokens, obtainCode, PRODUCTION_URL, REDIRECT, SANDBOX_URL, signIn, useIdp, useSandbox } from '../helpers.js';

const production = useIdp();
const sandbox = useSandbox();

type App = (typeof production)['idp']['app'];
/** A refresh grant at `app` by `client` (HTTP Basic). */
const refreshAt = (app: App, client: { client_id: string; client_secret: string | null }, refreshToken: string) =>
  request(app)
    .post('/oauth/token')
    .type('form')
    .set('Authorization', basic(client.client_id, client.client_secret!))
    .send({ grant_type: 'refresh_token', refresh_token: refreshToken });

const toSandbox = `belongs to the sandbox: send it to ${SANDBOX_URL}, not to production (${PRODUCTION_URL})`;
const toProduction = `belongs to production: send it to ${PRODUCTION_URL}, not to the sandbox (${SANDBOX_URL})`;

describe('discovery', () => {
  it('says which environment answers, and where the other one is', async () => {
    const sbx = await request(sandbox.idp.app).get('/.well-known/svc-configuration');
    expect(sbx.body).toMatchObject({ issuer: SANDBOX_URL, environment: 'sandbox', sandbox_base_url: SANDBOX_URL, production_base_url: PRODUCTION_URL });
    expect((await request(sandbox.idp.app).get('/.well-known/openid-configuration')).body).toMatchObject({ issuer: SANDBOX_URL, environment: 'sandbox' });
    expect((await request(production.idp.app).get('/.well-known/openid-configuration')).body).toMatchObject({
      issuer: PRODUCTION_URL,
      environment: 'production',
    });
  });
});

describe('the sandbox', () => {
  it('marks everything it makes with sbx_: client id and secret, session, code, refresh token, session cookie', async () => {
    const a = await arrange(sandbox.db, { environment: 'sandbox' });
    expect(a.confidential.client_id).toMatch(/^sbx_svc_client_/);
    expect(a.confidential.client_secret).toMatch(/^sbx_svcs_/);
    const signedIn = await request(sandbox.idp.app).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    expect(signedIn.body.session_token).toMatch(/^sbx_svcsess_/);
    // Browsers keep cookies apart by host, not port: the sandbox on localhost:4005 must not overwrite production's.
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^__Host-sbx_svc_session=sbx_svcsess_/);
    const { code, verifier } = await obtainCode(sandbox.idp.app, a.confidential.client_id, signedIn.body.session_token);
    expect(code).toMatch(/^sbx_svccode_/);
    const tokens = await exchangeWith(sandbox.idp.app, a.confidential, { code, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toMatch(/^sbx_svcrt_/);
    // Its access tokens are its own issuer's, signed with its own keys.
    const userinfo = await request(sandbox.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${tokens.body.access_token}`);
    expect(userinfo.body.iss).toBe(SANDBOX_URL);
  });
});

describe('a sandbox credential sent to production', () => {
  it('is refused, naming the sandbox: client, code, refresh token, access token, session', async () => {
    const a = await arrange(sandbox.db, { environment: 'sandbox' });
    const tokens = await issueTokens(sandbox.idp.app, a);
    const { code } = await obtainCode(sandbox.idp.app, a.confidential.client_id, tokens.session);

    const client = await refreshAt(production.idp.app, a.confidential, tokens.refresh_token);
    expect(client.status).toBe(401);
    expect(client.body).toMatchObject({ error: 'invalid_client', error_description: `This client_id ${toSandbox}` });

    // A production client that holds a sandbox code or refresh token by mistake.
    const p = await arrange(production.db);
    const exchanged = await exchangeWith(production.idp.app, p.confidential, { code, code_verifier: 'x'.repeat(43) });
    expect(exchanged.body).toMatchObject({ error: 'invalid_grant', error_description: `This authorization code ${toSandbox}` });
    const refreshed = await refreshAt(production.idp.app, p.confidential, tokens.refresh_token);
    expect(refreshed.body).toMatchObject({ error: 'invalid_grant', error_description: `This refresh token ${toSandbox}` });

    const userinfo = await request(production.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(userinfo.status).toBe(401);
    expect(userinfo.body.error_description).toBe(`This access token ${toSandbox}`);
    const preset = await request(production.idp.app).get('/v2/presets/age_over_18').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(preset.status).toBe(401);
    expect(preset.body).toMatchObject({ error_code: 'E4042', error_description: `This access token ${toSandbox}` });

    const session = await request(production.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${tokens.session}`);
    expect(session.status).toBe(401);
    expect(session.body).toMatchObject({ error: 'login_required', error_description: `This session token ${toSandbox}` });

    // Before any redirect is trusted, the authorize endpoint shows the reason instead of redirecting.
    const authorize = await request(production.idp.app)
      .get('/oauth/authorize')
      .query({
        client_id: a.confidential.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
      });
    expect(authorize.status).toBe(400);
    expect(authorize.body).toMatchObject({ error: 'invalid_client', error_description: `This client_id ${toSandbox}` });
  });
});

describe('a production credential sent to the sandbox', () => {
  it('is refused, naming production', async () => {
    const p = await arrange(production.db);
    const tokens = await issueTokens(production.idp.app, p);
    const client = await refreshAt(sandbox.idp.app, p.confidential, tokens.refresh_token);
    expect(client.status).toBe(401);
    expect(client.body).toMatchObject({ error: 'invalid_client', error_description: `This client_id ${toProduction}` });
    const userinfo = await request(sandbox.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(userinfo.body.error_description).toBe(`This access token ${toProduction}`);
    const session = await request(sandbox.idp.app)
      .get('/v2/developer/organization')
      .set('Authorization', `Bearer ${await signIn(production.idp.app, p.user.email, p.user.password)}`);
    expect(session.body.error_description).toBe(`This session token ${toProduction}`);
  });

  it('leaves other refusals as they were: an unknown client is still just unknown', async () => {
    const unknown = await request(sandbox.idp.app)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic('nobody', 'nothing'))
      .send({ grant_type: 'refresh_token', refresh_token: 'x' });
    expect(unknown.body).toMatchObject({ error: 'invalid_client', error_description: 'Unknown client' });
  });
});
