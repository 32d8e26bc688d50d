import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { csrfField } from '../hosted-forms.js';
import { arrange, basic, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();

const tokens = (a: Awaited<ReturnType<typeof arrange>>) => issueTokens(suite.idp.app, a);
const userinfo = (token: string) => request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);

describe('POST /oauth/revoke', () => {
  it('revokes an access token at once, and reports unknown and foreign tokens', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ tokens: [t.access_token, 'svcrt_unknown', 'garbage'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      revoked: true,
      revoked_count: 1,
      details: [
        { subject: 'token', token_type: 'access_token', authorization_id: t.authorizationId, client_id: a.confidential.client_id, status: 'revoked' },
        { subject: 'token', token_type: 'refresh_token', status: 'not_found' },
        { subject: 'token', status: 'invalid', reason: 'not a token this service issues' },
      ],
    });
    expect((await userinfo(t.access_token)).status).toBe(401);
    // The refresh token survives without cascade.
    const refreshed = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.status).toBe(200);
  });

  it('cascades from a refresh token to its authorization and every token under it', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(suite.idp.app).post('/oauth/revoke').type('form').send({
      token: t.refresh_token,
      token_type_hint: 'refresh_token',
      cascade: '1',
      client_id: a.confidential.client_id,
      client_secret: a.confidential.client_secret,
    });
    expect(res.body.revoked_count).toBe(1);
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: t.authorizationId } })).status).toBe('revoked');
  });

  it('revokes an authorization for its client or its own user, and for no one else', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const t = await tokens(a);
    const foreign = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    expect(foreign.body).toEqual({
      revoked: false,
      revoked_count: 0,
      details: [{ subject: 'authorization', authorization_id: t.authorizationId, status: 'not_found' }],
    });
    const byUser = await request(suite.idp.app).post('/oauth/revoke').set('Authorization', `Bearer ${t.session}`).send({ authorization_id: t.authorizationId });
    expect(byUser.body).toMatchObject({
      revoked: true,
      revoked_count: 1,
      details: [{ subject: 'authorization', authorization_id: t.authorizationId, status: 'revoked' }],
    });
    expect((await userinfo(t.access_token)).status).toBe(401);
    const missing = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({});
    expect(missing.status).toBe(400);
  });

  it('answers a request that names nothing 400 before asking who sends it; with the session cookie, revokes only with the session’s CSRF token', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const nothing = await request(suite.idp.app).post('/oauth/revoke').send({});
    expect([nothing.status, nothing.body.error]).toEqual([400, 'invalid_request']);
    const cookie = `__Host-svc_session=${t.session}`;
    const forged = await request(suite.idp.app).post('/oauth/revoke').set('Cookie', cookie).send({ authorization_id: t.authorizationId });
    expect([forged.status, forged.body.error]).toEqual([403, 'csrf_failed']);
    // The console's page carries the session's CSRF token (a page, so the bare app serves it).
    const csrf = csrfField((await request(createApp(suite.idp.deps)).get('/console').set('Cookie', cookie)).text);
    const byCookie = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .send({ authorization_id: t.authorizationId });
    expect(byCookie.body).toMatchObject({ revoked: true, revoked_count: 1 });
  });
});
