import { describe, expect, it } from '@jest/globals';
import { createLocalJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { arrange, basic, useIdp, obtainCode, REDIRECT, signIn } from '../helpers.js';

const suite = useIdp();

describe('the authorization code flow (JSON API)', () => {
  it('goes authorize → approve → token → id_token → userinfo → refresh', async () => {
    const { user, confidential } = await arrange(suite.db);
    const session = await signIn(suite.idp.app, user.email, user.password);
    const { code, verifier, authorizationId, approve } = await obtainCode(suite.idp.app, confidential.client_id, session, { nonce: 'nonce-42' });
    expect(approve).toMatchObject({
      status: 'approved',
      state: 'st-1',
      redirect_uri: REDIRECT,
      client_id: confidential.client_id,
      granted_scopes: ['identity:read', 'openid', 'profile.full'],
    });
    expect(approve.redirect_to).toBe(`${REDIRECT}?code=${code}&state=st-1&iss=${encodeURIComponent('https://id.example.com')}`);

    const token = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(confidential.client_id, confidential.client_secret!))
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'identity:read openid profile.full',
      granted_scopes: ['identity:read', 'openid', 'profile.full'],
      authorization_id: authorizationId,
      app_scoped_user_id: expect.stringMatching(/^asu_/),
      refresh_token: expect.stringMatching(/^svcrt_/),
      refresh_token_expires_in: 2_592_000,
    });

    const jwks = createLocalJWKSet((await request(suite.idp.app).get('/.well-known/jwks.json')).body);
    const id = await jwtVerify(token.body.id_token, jwks, { issuer: 'https://id.example.com', audience: confidential.client_id, algorithms: ['RS256'] });
    expect(id.payload).toMatchObject({
      sub: token.body.app_scoped_user_id,
      nonce: 'nonce-42',
      authorization_id: authorizationId,
      auth_time: expect.any(Number),
    });
    const at = await jwtVerify(token.body.access_token, jwks, { issuer: 'https://id.example.com', typ: 'at+jwt' });
    expect(at.payload).toMatchObject({
      sub: token.body.app_scoped_user_id,
      client_id: confidential.client_id,
      scope: 'identity:read openid profile.full',
      jti: expect.any(String),
    });

    const info = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token.body.access_token}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      sub: token.body.app_scoped_user_id,
      iss: 'https://id.example.com',
      aud: 'https://id.example.com/v2',
      authorization_id: authorizationId,
      email: user.email,
      service_id: user.service_id,
      wallet_address: null,
    });

    const refreshed = await request(suite.idp.app).post('/oauth/token').send({
      grant_type: 'refresh_token',
      refresh_token: token.body.refresh_token,
      client_id: confidential.client_id,
      client_secret: confidential.client_secret,
      scope: 'openid identity:read',
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.granted_scopes).toEqual(['identity:read', 'openid']);
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
  });

  it('keeps email out of userinfo without a scope that covers it', async () => {
    const { user, confidential } = await arrange(suite.db);
    const session = await signIn(suite.idp.app, user.email, user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, confidential.client_id, session, { scope: 'openid identity:read' });
    const token = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(confidential.client_id, confidential.client_secret!))
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    const info = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token.body.access_token}`);
    expect(info.body.email).toBeUndefined();
    expect(info.body.wallet_address).toBeUndefined();
  });

  it('lets a public client exchange with PKCE alone, and honours implied scopes', async () => {
    const { user, publicClient } = await arrange(suite.db);
    const session = await signIn(suite.idp.app, user.email, user.password);
    const { code, verifier, approve } = await obtainCode(suite.idp.app, publicClient.client_id, session, { scope: 'financial:net_worth' });
    expect(approve.granted_scopes).toEqual(['financial:read', 'financial:net_worth']);
    const token = await request(suite.idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: publicClient.client_id });
    expect(token.status).toBe(200);
    expect(token.body.id_token).toBeUndefined();
  });

  it('redirects a browser to the hosted consent page', async () => {
    const { confidential } = await arrange(suite.db);
    const res = await request(suite.idp.app)
      .get('/oauth/authorize')
      .set('Accept', 'text/html,application/xhtml+xml')
      .query({
        client_id: confidential.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/id\.example\.com\/consent\?authorization_id=[0-9a-f-]{36}$/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers /oauth/authorize/result for a device that polls', async () => {
    const { user, confidential } = await arrange(suite.db);
    const session = await signIn(suite.idp.app, user.email, user.password);
    const { code, authorizationId } = await obtainCode(suite.idp.app, confidential.client_id, session);
    const res = await request(suite.idp.app)
      .get('/oauth/authorize/result')
      .set('Authorization', basic(confidential.client_id, confidential.client_secret!))
      .query({ authorization_id: authorizationId });
    expect(res.body).toEqual({
      authorization_id: authorizationId,
      status: 'approved',
      redirect_uri: REDIRECT,
      state: 'st-1',
      code,
      redirect_to: expect.stringContaining(`code=${code}`),
    });
  });
});
