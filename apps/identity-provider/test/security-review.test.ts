// Findings 1 to 7 of the security review, each reproduced as the attack it describes, through HTTP.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, buildIdp, exchangeWith, issueTokens, obtainCode, pkce, REDIRECT, signIn, useIdp } from './helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

const exchange = (client: { client_id: string; client_secret?: string | null }, body: Record<string, string>) => exchangeWith(app(), client, body);
const refreshWith = (client: { client_id: string; client_secret: string | null }, refresh_token: string) =>
  request(app()).post('/oauth/token').set('Authorization', basic(client.client_id, client.client_secret!)).send({ grant_type: 'refresh_token', refresh_token });
const userinfo = (token: string) => request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
const tokens = (a: Awaited<ReturnType<typeof arrange>>, scope?: string) => issueTokens(app(), a, scope);

describe('finding 1: an authorization id alone does not reveal its code', () => {
  it('answers a public client’s approved authorization without its code, so a stranger cannot redeem it', async () => {
    const a = await arrange(suite.db);
    // The attacker starts the flow with a PKCE pair of their own and sends the consent URL to the victim.
    const attacker = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.publicClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid identity:read',
      state: 's',
      code_challenge: attacker.challenge,
      code_challenge_method: 'S256',
    });
    const victim = await signIn(app(), a.user.email, a.user.password);
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${victim}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(approved.status).toBe(200);
    const polled = await request(app()).get('/oauth/authorize/result').query({ authorization_id: started.body.authorization_id });
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({
      authorization_id: started.body.authorization_id,
      status: 'approved',
      redirect_uri: REDIRECT,
      state: 's',
      redirect_to: null,
    });
    expect(polled.body.code).toBeUndefined();
    expect(JSON.stringify(polled.body)).not.toContain(approved.body.code);
    // The code stays good for its real destination.
    expect((await exchange(a.publicClient, { code: approved.body.code, code_verifier: attacker.verifier })).status).toBe(200);
  });

  it('gives the code to the confidential client that owns the authorization, and only to it', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, authorizationId } = await obtainCode(app(), a.confidential.client_id, session);
    const anonymous = await request(app()).get('/oauth/authorize/result').query({ authorization_id: authorizationId });
    expect(anonymous.body.code).toBeUndefined();
    const stranger = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .query({ authorization_id: authorizationId });
    expect(stranger.status).toBe(404);
    const wrongSecret = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(a.confidential.client_id, 'wrong'))
      .query({ authorization_id: authorizationId });
    expect(wrongSecret.status).toBe(401);
    const owner = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .query({ authorization_id: authorizationId });
    expect(owner.status).toBe(200);
    expect(owner.body.code).toBe(code);
    expect(new URL(owner.body.redirect_to).searchParams.get('code')).toBe(code);
  });

  it('keeps no code in plain text in the store', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, authorizationId } = await obtainCode(app(), a.confidential.client_id, session);
    const kept = await suite.idp.deps.store.cache.get(`authz-code:${authorizationId}`);
    expect(kept).not.toBeNull();
    expect(kept).not.toContain(code);
    expect(kept).not.toContain(code.slice(8, 30));
  });
});

describe('findings 2 and 3: the grant’s access tokens end with its refresh tokens', () => {
  it('revokes every access token of the grant when a rotated refresh token is reused', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const rotated = await refreshWith(a.confidential, t.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await userinfo(rotated.body.access_token)).status).toBe(200);
    // A thief replays the old refresh token.
    expect((await refreshWith(a.confidential, t.refresh_token)).body.error).toBe('invalid_grant');
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await userinfo(rotated.body.access_token)).status).toBe(401);
    expect((await refreshWith(a.confidential, rotated.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('ends the grant’s access tokens when a refresh token is revoked, without cascade', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(app())
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .type('form')
      .send({ token: t.refresh_token });
    expect(res.body).toMatchObject({ revoked: true, revoked_count: 1 });
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await refreshWith(a.confidential, t.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('finding 4: login CSRF', () => {
  it('refuses a cross-site form post to POST /auth/session', async () => {
    const a = await arrange(suite.db);
    const forged = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toBe('csrf_failed');
    expect(forged.headers['set-cookie']).toBeUndefined();
    const noOrigin = await request(app()).post('/auth/session').type('form').send({ email: a.user.email, password: a.user.password });
    expect(noOrigin.status).toBe(403);
    const crossSite = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://id.example.com')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(crossSite.status).toBe(403);
  });

  it('still signs in a same-origin form post and a JSON API caller', async () => {
    const a = await arrange(suite.db);
    const form = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://id.example.com')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(form.status).toBe(200);
    const json = await request(app()).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    expect(json.status).toBe(200);
  });
});

describe('finding 5: consent shows every scope it grants', () => {
  it('shows implied scopes on the consent page and grants only what stays checked', async () => {
    const a = await arrange(suite.db, { scopes: 'openid identity:read identity:date_of_birth' });
    const agent = request.agent(app());
    const { challenge } = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'identity:date_of_birth',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const session = await signIn(app(), a.user.email, a.user.password);
    const page = await agent.get('/consent').set('Cookie', `svc_session=${session}`).query({ authorization_id: started.body.authorization_id });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="identity:date_of_birth"');
    expect(page.text).toContain('value="identity:read"');
    const context = await request(app())
      .get('/oauth/authorize/context')
      .set('Authorization', `Bearer ${session}`)
      .query({ authorization_id: started.body.authorization_id });
    expect(context.body.scopes.map((s: { id: string }) => s.id)).toEqual(['identity:date_of_birth', 'identity:read']);
    // The user unticks the implied scope: it is not granted.
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id, scopes: ['identity:date_of_birth'] });
    expect(approved.status).toBe(200);
    expect(approved.body.granted_scopes).toEqual(['identity:date_of_birth']);
  });
});

describe('finding 6: user info stays within its scopes and window', () => {
  it('does not show service_id to a token without openid', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a, 'identity:read');
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(200);
    expect(res.body.service_id).toBeUndefined();
    const preset = await request(app()).get('/v2/presets/service_uuid').set('Authorization', `Bearer ${t.access_token}`);
    expect(preset.status).toBe(403);
  });

  it('refuses user info once the data window is over', async () => {
    const a = await arrange(suite.db, { presetCacheTtl: 60 });
    const t = await tokens(a);
    await suite.db.authorization.update({ where: { id: t.authorizationId }, data: { approvedAt: new Date(Date.now() - 120_000) } });
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('E4010');
  });
});

describe('finding 7: strangers cannot use up a public client’s rate limit', () => {
  it('keeps serving the real users while one address floods the token endpoint with the client’s id', async () => {
    // A still clock: no rate window can end in the middle of the test.
    const at = new Date();
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '20', TRUST_PROXY: 'true' }, { now: () => at });
    try {
      const a = await arrange(suite.db);
      const flood = [];
      for (let i = 0; i < 40; i++) {
        flood.push(
          (
            await request(limited.app)
              .post('/oauth/token')
              .set('X-Forwarded-For', '203.0.113.9')
              .type('form')
              .send({
                grant_type: 'authorization_code',
                client_id: a.publicClient.client_id,
                code: `svccode_${i}`,
                redirect_uri: REDIRECT,
                code_verifier: 'x'.repeat(43),
              })
          ).status,
        );
      }
      expect(flood).toContain(429);
      const session = await signIn(limited.app, a.user.email, a.user.password);
      const { code, verifier } = await obtainCode(limited.app, a.publicClient.client_id, session);
      const real = await request(limited.app)
        .post('/oauth/token')
        .set('X-Forwarded-For', '198.51.100.7')
        .type('form')
        .send({ grant_type: 'authorization_code', client_id: a.publicClient.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier });
      expect(real.status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });
});
