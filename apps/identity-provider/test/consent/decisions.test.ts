import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, useIdp, pkce, REDIRECT, signIn } from '../helpers.js';

const suite = useIdp();
const authorize = (query: Record<string, string>) => request(suite.idp.app).get('/oauth/authorize').query(query);

describe('decisions', () => {
  it('answers 404 for an authorization id that is not a UUID, whatever its shape', async () => {
    const uuidShaped = '-'.repeat(36);
    expect((await request(suite.idp.app).get('/oauth/authorize/result').query({ authorization_id: uuidShaped })).status).toBe(404);
    expect(
      (
        await request(suite.idp.app)
          .get('/consent')
          .query({ authorization_id: 'a'.repeat(36) })
      ).status,
    ).toBe(404);
  });

  it('treats a session cookie that is not our encoding as no session, not as a failure', async () => {
    const res = await request(suite.idp.app).get('/v2/developer/organization').set('Cookie', '__Host-svc_session=%E0%A4%A');
    expect(res.status).toBe(401);
  });

  it('requires the CSRF token with the session cookie', async () => {
    const a = await arrange(suite.db);
    const signin = await request(suite.idp.app).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    const cookie = signin.headers['set-cookie']![0]!.split(';')[0]!;
    expect(signin.headers['set-cookie']![0]).toMatch(/HttpOnly/);
    expect(signin.headers['set-cookie']![0]).toMatch(/SameSite=Lax/);
    expect(signin.headers['set-cookie']![0]).toMatch(/Secure/);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/approve')
      .set('Cookie', cookie)
      .type('form')
      .send({ authorization_id: started.body.authorization_id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('csrf_failed');
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: started.body.authorization_id } })).status).toBe('pending_admin');
  });

  it('hides an authorization from anyone but its own user', async () => {
    const a = await arrange(suite.db);
    const owner = await signIn(suite.idp.app, a.user.email, a.user.password);
    const intruder = await signIn(suite.idp.app, a.other.email, a.other.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const id = started.body.authorization_id;
    expect((await request(suite.idp.app).get('/oauth/authorize/context').query({ authorization_id: id }).set('Authorization', `Bearer ${owner}`)).status).toBe(
      200,
    );
    for (const attempt of [
      request(suite.idp.app).get('/oauth/authorize/context').query({ authorization_id: id }).set('Authorization', `Bearer ${intruder}`),
      request(suite.idp.app).post('/oauth/authorize/approve').set('Authorization', `Bearer ${intruder}`).send({ authorization_id: id }),
      request(suite.idp.app).post('/oauth/authorize/deny').set('Authorization', `Bearer ${intruder}`).send({ authorization_id: id }),
    ]) {
      expect((await attempt).status).toBe(404);
    }
  });

  it('refuses approval by a user who is not palm-verified when the policy requires it', async () => {
    const a = await arrange(suite.db, { palmVerified: false, requiresPalm: true });
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('palm_verification_required');
  });

  it('denies with access_denied and the state', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 's9',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/deny')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(res.body.status).toBe('denied');
    const to = new URL(res.body.redirect_to);
    expect([to.searchParams.get('error'), to.searchParams.get('state'), to.searchParams.get('iss')]).toEqual(['access_denied', 's9', 'https://id.example.com']);
  });
});
